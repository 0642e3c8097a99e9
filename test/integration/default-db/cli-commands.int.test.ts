// The built `kandev` CLI as a child process against a real backend (and its local agentctl): creating
// and listing every noun, launch, prompt, tools, --json output, token resolution from the data dir,
// and the exit code of each error kind.
import { join } from 'node:path';
import { type CliEnv, cliJson, runCli } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { REPO_ROOT, startBackend } from '../../helpers/processes';

interface Created {
  id: string;
}

describe('kandev CLI against a real backend', () => {
  const cleanup = useCleanup();

  async function backend(): Promise<CliEnv & { dataDir: string; logs: () => string }> {
    const daemon = await startBackend(cleanup);
    return { url: daemon.ready.url, token: daemon.apiToken, dataDir: daemon.dataDir, logs: daemon.logs };
  }

  test('status, create and list every noun, show, launch MCP-only, tools, prompt', async () => {
    const kandev = await backend();
    const status = await runCli(kandev, ['status']);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.stdout).toMatch(/: ready \(token accepted\)/);
    // No token given: KANDEV_DATA_DIR's api-token (the file the backend wrote on first start).
    const fromDataDir = await runCli({ url: kandev.url, env: { KANDEV_DATA_DIR: kandev.dataDir } }, ['status']);
    expect(fromDataDir.code).toBe(0);
    expect(fromDataDir.stdout + fromDataDir.stderr).not.toContain(kandev.token);

    // `kandev console`: a one-time sign-in link; following it sets the console's cookie, once.
    const link = await cliJson<{ url: string }>(kandev, ['console']);
    expect(link.url).toMatch(new RegExp(`^${kandev.url}/login\\?code=`));
    expect(link.url).not.toContain(kandev.token);
    const signIn = await fetch(link.url, { redirect: 'manual' });
    expect({ status: signIn.status, location: signIn.headers.get('location') }).toEqual({ status: 303, location: '/' });
    expect(signIn.headers.get('set-cookie')).toMatch(/^kandev_session=.*HttpOnly.*SameSite=Strict/);
    const again = await fetch(link.url, { redirect: 'manual' });
    expect(again.headers.get('location')).toBe('/#/signin-link-invalid');

    const workspace = await cliJson<Created & { name: string }>(kandev, ['workspaces', 'create', 'demo']);
    expect(workspace.name).toBe('demo');
    // One workspace: --workspace may be left out.
    const repo = await cliJson<Created & { provider: string }>(kandev, [
      'repo',
      'create',
      'https://github.com/acme/importer.git',
    ]);
    expect(repo.provider).toBe('github');
    const task = await cliJson<Created & { repository_ids: string[] }>(kandev, [
      'tasks',
      'create',
      'Fix the importer',
      '--repo',
      repo.id,
    ]);
    expect(task.repository_ids).toEqual([repo.id]);
    const profile = await cliJson<Created & { supports_mcp: boolean }>(kandev, [
      'profiles',
      'create',
      'echo',
      '--command',
      process.execPath,
      '--arg',
      '--version',
      '--env',
      'SECRET_KEY=hidden',
    ]);
    expect(profile.supports_mcp).toBe(true);

    expect((await cliJson<Created[]>(kandev, ['workspaces', 'ls'])).map((w) => w.id)).toEqual([workspace.id]);
    expect((await cliJson<Created[]>(kandev, ['repos', 'ls', '--workspace', workspace.id])).map((r) => r.id)).toEqual([
      repo.id,
    ]);
    expect((await cliJson<Created[]>(kandev, ['task', 'ls'])).map((t) => t.id)).toEqual([task.id]);
    expect((await cliJson<Created[]>(kandev, ['profiles', 'ls'])).map((p) => p.id)).toEqual([profile.id]);
    expect(await cliJson<{ title: string }>(kandev, ['tasks', 'show', task.id])).toMatchObject({
      title: 'Fix the importer',
    });
    const shownProfile = await runCli(kandev, ['profile', 'show', profile.id]);
    expect(shownProfile.stdout).toContain('SECRET_KEY');
    expect(shownProfile.stdout).not.toContain('hidden');

    // A shipped profile file, posted as is with the user's key added; a bad file changes nothing.
    const shipped = await cliJson<Created & { name: string; args: string[]; env_keys: string[] }>(kandev, [
      'profiles',
      'create',
      '--from',
      join(REPO_ROOT, 'docs/agent-profiles/gemini-cli.json'),
      '--env',
      'GEMINI_API_KEY=sealed-value',
    ]);
    expect(shipped).toMatchObject({
      name: 'Gemini CLI (ACP)',
      args: expect.arrayContaining(['--acp', '--allowed-mcp-server-names', 'kandev']) as unknown,
    });
    expect([...shipped.env_keys].sort()).toEqual([
      'GEMINI_API_KEY',
      'GEMINI_CLI_NO_RELAUNCH',
      'GEMINI_CLI_TRUST_WORKSPACE',
    ]);
    const badFile = await runCli(kandev, ['profiles', 'create', '--from', join(REPO_ROOT, 'package.json')]);
    expect(badFile).toMatchObject({ code: 2, stderr: expect.stringContaining('--from') as unknown });
    const listed = (await cliJson<Created[]>(kandev, ['profiles', 'ls'])).map((p) => p.id);
    expect(listed.sort()).toEqual([profile.id, shipped.id].sort());

    const table = await runCli(kandev, ['tasks', 'ls']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATE\s+ATTENTION\s+TITLE$/);
    expect(table.stdout).toContain('Fix the importer');
    // Piped: never a colour escape.
    expect(table.stdout).not.toContain('\u001b[');

    const launched = await runCli(kandev, ['launch', task.id]);
    expect(launched.code).toBe(0);
    const sessionId = /launched session (\S+)/.exec(launched.stdout)?.[1] ?? '';
    expect(launched.stdout).toMatch(/providers: +github/);
    const sessions = await cliJson<{ id: string; state: string }[]>(kandev, ['sessions', 'ls', '--task', task.id]);
    expect(sessions).toEqual([expect.objectContaining({ id: sessionId, state: 'waiting_for_input' })]);
    expect(await cliJson<{ tools: string[] }>(kandev, ['session', 'show', sessionId])).toMatchObject({
      tools: expect.arrayContaining(['get_task_kandev']),
    });

    const tools = await cliJson<{
      revision: number;
      providers: string[];
      tools: { name: string; description: string; input_schema: { type: string } }[];
    }>(kandev, ['tools', sessionId]);
    expect(tools).toMatchObject({ revision: 1, providers: ['github'] });
    expect(tools.tools.map((tool) => tool.name)).toContain('get_task_pr_automation_kandev');
    for (const tool of tools.tools) expect(tool.input_schema.type).toBe('object');
    const toolsText = await runCli(kandev, ['tools', sessionId]);
    expect(toolsText.stdout).toMatch(/revision 1, providers github, questions user/);

    const prompt = await runCli(kandev, ['prompt', sessionId, 'hello there']);
    expect(prompt).toMatchObject({ code: 0, stderr: '' });
    expect(prompt.stdout).toMatch(/^queued prompt \S+ \(queued\)\n$/);
  });

  test('exit codes: 404 → 3, 401 → 4, 400 → 2, 409 → 5, unreachable → 6, usage → 2', async () => {
    const kandev = await backend();
    const notFound = await runCli(kandev, ['tasks', 'show', 'no-such-task']);
    expect(notFound).toMatchObject({ code: 3, stdout: '' });
    expect(notFound.stderr).toBe('kandev: task no-such-task not found (not_found, HTTP 404)\n');

    const badToken = await runCli({ ...kandev, token: 'kdv_wrong' }, ['workspaces', 'ls']);
    expect(badToken.code).toBe(4);
    expect(badToken.stderr).toMatch(/^kandev: .*HTTP 401.*token from KANDEV_API_TOKEN\n$/);
    expect(badToken.stderr).not.toContain('kdv_wrong');

    const workspace = await cliJson<Created>(kandev, ['workspaces', 'create', 'w']);
    const badInput = await runCli(kandev, ['tasks', 'create', '  ', '--workspace', workspace.id]);
    expect(badInput.code).toBe(2);
    expect(badInput.stderr).toMatch(/^kandev: .*title.*HTTP 400\)\n$/);

    await cliJson(kandev, ['repos', 'create', 'https://gitlab.com/acme/a.git']);
    const duplicate = await runCli(kandev, ['repos', 'create', 'https://gitlab.com/acme/a.git']);
    expect(duplicate.code).toBe(5);
    expect(duplicate.stderr).toMatch(/already registered.*HTTP 409/);

    const unreachable = await runCli({ ...kandev, url: 'http://127.0.0.1:1' }, ['status']);
    expect(unreachable.code).toBe(6);
    expect(unreachable.stderr).toMatch(/^kandev: cannot reach the backend at http:\/\/127\.0\.0\.1:1: /);

    expect((await runCli(kandev, ['tasks', 'frobnicate'])).code).toBe(2);
    expect((await runCli(kandev, ['launch'])).code).toBe(2);
    expect((await runCli(kandev, ['--help'])).code).toBe(0);
  });
});
