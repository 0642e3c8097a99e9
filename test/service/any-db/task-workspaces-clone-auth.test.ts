// Clones with the workspace's provider credential, through real git: the token reaches the server as an
// HTTP header for that one command and is never written into the clone's .git/config nor quoted in an
// error. Also a clone reached by file://.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentProfileService,
  CreateAgentProfileBodySchema,
  createCheckout,
  createInProcessBackend,
  FakeAgentctl,
  fakeAgentctlPort,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import {
  currentBranch,
  GIT_CONTEXT,
  makeBareRepository,
  startTokenHttpServer,
  workspacesConfig,
} from '../../helpers/git-repos';
import { tempDir } from '../../helpers/processes';

const TOKEN = 'glpat-secret-token-0123456789';
const HEADER = `Basic ${Buffer.from(`oauth2:${TOKEN}`).toString('base64')}`;

/** Every file under .git whose text mentions the token or its header (config, logs, FETCH_HEAD…). */
function filesHolding(gitDir: string, needles: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (needles.some((needle) => readFileSync(path, 'latin1').includes(needle))) found.push(path);
    }
  };
  walk(gitDir);
  return found;
}

describe('clone credentials (real git, loopback servers)', () => {
  const cleanup = useCleanup();

  test("a remote clone carries the workspace's token as a header for that command only", async () => {
    const server = await startTokenHttpServer(cleanup, HEADER);
    makeBareRepository(server.base, 'acme', 'app');
    const dir = join(tempDir(cleanup, 'kandev-workspaces-'), 'workspaces');
    const { backend } = await createInProcessBackend(cleanup, {
      agentctl: fakeAgentctlPort(new FakeAgentctl()),
      config: { workspaces: workspacesConfig(dir) },
    });
    const now = new Date().toISOString();
    await backend.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: now });
    await backend.uow.read.workspaceCredentials.upsert({
      workspaceId: 'w',
      provider: 'gitlab',
      token: TOKEN,
      username: null,
      baseUrl: server.origin,
      createdAt: now,
      updatedAt: now,
    });
    // Only a session with an agent gets a checkout.
    const profile = await new AgentProfileService({ uow: backend.uow, clock: () => new Date() }).create(
      CreateAgentProfileBodySchema.parse({ name: 'agent', command: 'agent', supports_mcp: true }),
    );
    const taskId = (await backend.tasks.create({ workspace_id: 'w', title: 't', agent_profile_id: profile.id })).task
      .id;
    const remote = `${server.origin}/acme/app.git`;
    await backend.sources.add(taskId, {
      sources: [{ remote_url: remote, provider: 'gitlab', base_branch: 'develop' }],
    });
    await backend.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });

    const clone = join(dir, taskId, 'app');
    expect(currentBranch(clone)).toBe(`kandev/${taskId}`);
    expect(readFileSync(join(clone, 'DEVELOP'), 'utf8')).toBe('develop\n');
    expect(server.authorizations.length).toBeGreaterThan(0);
    expect(server.authorizations.every((auth) => auth === HEADER)).toBe(true);
    const config = readFileSync(join(clone, '.git', 'config'), 'utf8');
    expect(config).toContain(`url = ${remote}`);
    expect(filesHolding(join(clone, '.git'), [TOKEN, HEADER, 'extraHeader', 'extraheader'])).toEqual([]);
  });

  test('without the credential the clone fails at once (no prompt), naming the repository, quoting no token', async () => {
    const server = await startTokenHttpServer(cleanup, HEADER);
    makeBareRepository(server.base, 'acme', 'app');
    const target = join(tempDir(cleanup, 'kandev-clone-'), 'app');
    const source = {
      repositoryId: 'r',
      name: 'app',
      localPath: null,
      remoteUrl: `${server.origin}/acme/app.git`,
      provider: 'gitlab',
      baseBranch: null,
    };
    const options = { git: GIT_CONTEXT, branch: 'kandev/t' };
    await expect(createCheckout(source, target, options)).rejects.toThrow(
      /checking out repository app \(http:\/\/127\.0\.0\.1:\d+\/acme\/app\.git\) failed: git clone failed/,
    );
    // A credential for another host never goes along.
    const elsewhere = { provider: 'gitlab', token: TOKEN, baseUrl: 'https://gitlab.example.com' };
    const failure = await createCheckout(source, target, { ...options, credential: elsewhere }).catch((e: Error) => e);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).not.toContain(TOKEN);
    expect(server.authorizations.filter((auth) => auth !== '')).toEqual([]);
  });

  test('a bare repository reached by file:// is cloned on the base branch, then the task branch', async () => {
    const base = tempDir(cleanup, 'kandev-bare-');
    const bare = makeBareRepository(base, 'acme', 'lib');
    const target = join(tempDir(cleanup, 'kandev-clone-'), 'lib');
    const source = {
      repositoryId: 'r',
      name: 'lib',
      localPath: null,
      remoteUrl: `file://${bare}`,
      provider: null,
      baseBranch: 'develop',
    };
    const made = await createCheckout(source, target, { git: GIT_CONTEXT, branch: 'kandev/t1' });
    expect(made).toEqual({ kind: 'clone', gitCommonDir: null });
    expect(currentBranch(target)).toBe('kandev/t1');
    expect(readFileSync(join(target, 'DEVELOP'), 'utf8')).toBe('develop\n');
  });
});
