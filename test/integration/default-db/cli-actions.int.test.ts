// The operator's verbs through the built `kandev` CLI against a real backend: tokens, profiles,
// sources, sessions, prompts, messages, tasks; confirmation (--yes off a terminal, y/N on one), id
// prefixes, list options and the sessions list's AGE and ERROR columns. What each verb changed is read
// back over REST, and a refused verb is shown to have changed nothing.
import { type CliEnv, cliJson, runCli, startCliInTerminal } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface Created {
  id: string;
}

describe('kandev CLI verbs against a real backend', () => {
  const cleanup = useCleanup();

  async function backend(): Promise<
    CliEnv & { rest: (method: string, path: string, body?: unknown) => Promise<Response> }
  > {
    const daemon = await startBackend(cleanup);
    const url = daemon.ready.url;
    const rest = (method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${daemon.apiToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    return { url, token: daemon.apiToken, rest };
  }

  test('tokens ls|create|revoke: the token shown once, refused once revoked; revoke needs --yes off a terminal', async () => {
    const kandev = await backend();
    const created = await runCli(kandev, ['tokens', 'create', 'ci']);
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/^created admin token \S+ \(ci\) for every workspace; it is shown only now:\n$/);
    const token = created.stdout.trim();
    expect((await runCli({ ...kandev, token }, ['workspaces', 'ls'])).code).toBe(0);
    const listed = await cliJson<{ id: string; name: string; token?: string }[]>(kandev, [
      'tokens',
      'ls',
      '--sort',
      'name',
    ]);
    const ci = listed.find((t) => t.name === 'ci');
    expect(ci).toBeDefined();
    expect(JSON.stringify(listed)).not.toContain(token);

    const unconfirmed = await runCli(kandev, ['tokens', 'revoke', ci?.id ?? '']);
    expect(unconfirmed).toMatchObject({ code: 2, stdout: '' });
    expect(unconfirmed.stderr).toMatch(/not a terminal, so confirm with --yes \(nothing was changed\)/);
    expect((await runCli({ ...kandev, token }, ['workspaces', 'ls'])).code).toBe(0);

    const revoked = await runCli(kandev, ['tokens', 'revoke', '--yes', (ci?.id ?? '').slice(0, 8)]);
    expect(revoked).toMatchObject({ code: 0, stdout: `revoked token ${ci?.id}\n` });
    expect((await runCli({ ...kandev, token }, ['workspaces', 'ls'])).code).toBe(4);
  });

  test('profiles edit|rm: env values never printed; nothing to change, or a profile in use, changes nothing', async () => {
    const kandev = await backend();
    const workspace = await cliJson<Created>(kandev, ['workspaces', 'create', 'w']);
    const profile = await cliJson<Created>(kandev, [
      'profiles',
      'create',
      'p',
      '--command',
      'node',
      '--env',
      'API_KEY=sekrit-value',
    ]);
    const edited = await runCli(kandev, [
      'profiles',
      'edit',
      profile.id.slice(0, 10),
      '--permission-policy',
      'allow_all',
    ]);
    expect(edited).toMatchObject({ code: 0, stdout: `changed agent profile ${profile.id} (p)\n` });
    const wide = await runCli(kandev, ['profiles', 'ls', '-o', 'wide']);
    expect(wide.stdout).toMatch(/allow_all/);
    expect(wide.stdout).toContain('API_KEY');
    const shown = await runCli(kandev, ['--json', 'profiles', 'show', profile.id]);
    expect(shown.stdout + wide.stdout + edited.stdout).not.toContain('sekrit-value');

    // Every field; env is a merge: --env sets, --unset-env removes, the variables not named are kept.
    await runCli(kandev, ['profiles', 'edit', profile.id, '--env', 'OTHER=kept-value']);
    const everything = await cliJson<{ name: string; command: string; args: string[]; env_keys: string[] }>(kandev, [
      'profiles',
      'edit',
      profile.id,
      ...['--name', 'renamed', '--command', process.execPath, '--arg', '--version', '--arg', 'x'],
      ...['--env', 'TOKEN=new-sekrit', '--unset-env', 'API_KEY'],
    ]);
    expect(everything).toMatchObject({ name: 'renamed', command: process.execPath, args: ['--version', 'x'] });
    expect([...everything.env_keys].sort()).toEqual(['OTHER', 'TOKEN']);
    expect(JSON.stringify(everything)).not.toMatch(/sekrit|kept-value/);
    const both = await runCli(kandev, ['profiles', 'edit', profile.id, '--env', 'X=1', '--unset-env', 'X']);
    expect(both).toMatchObject({ code: 2, stderr: expect.stringContaining('both name X') as unknown });
    const pair = await runCli(kandev, ['profiles', 'edit', profile.id, '--unset-env', 'X=1']);
    expect(pair.code).toBe(2);
    const after = await cliJson<{ env_keys: string[]; name: string }>(kandev, ['profiles', 'show', profile.id]);
    expect([after.name, [...after.env_keys].sort()]).toEqual(['renamed', ['OTHER', 'TOKEN']]);

    const nothing = await runCli(kandev, ['profiles', 'edit', profile.id]);
    expect(nothing).toMatchObject({ code: 2, stderr: expect.stringContaining('nothing to change') as unknown });
    const badPolicy = await runCli(kandev, ['profiles', 'edit', profile.id, '--permission-policy', 'sometimes']);
    expect(badPolicy.code).toBe(2);

    await cliJson(kandev, ['tasks', 'create', 't', '--workspace', workspace.id, '--profile', profile.id]);
    const inUse = await runCli(kandev, ['profiles', 'rm', '--yes', profile.id]);
    expect(inUse.code).toBe(5);
    const spare = await cliJson<Created>(kandev, ['profiles', 'create', 'spare', '--command', 'node']);
    expect((await runCli(kandev, ['profiles', 'rm', '--yes', spare.id])).stdout).toBe(
      `deleted agent profile ${spare.id}\n`,
    );
    const left = await cliJson<Created[]>(kandev, ['profiles', 'ls']);
    expect(left.map((p) => p.id)).toEqual([profile.id]);
  });

  test('sources ls|add|rm, tasks archive (y/N on a terminal) and the task verbs the backend serves', async () => {
    const kandev = await backend();
    await cliJson(kandev, ['workspaces', 'create', 'w']);
    const repo = await cliJson<Created>(kandev, ['repos', 'create', 'https://github.com/acme/a.git']);
    const task = await cliJson<Created>(kandev, ['tasks', 'create', 'Sources']);
    const added = await runCli(kandev, [
      'sources',
      'add',
      task.id.slice(0, 12),
      repo.id.slice(0, 12),
      'https://gitlab.com/acme/b.git',
    ]);
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toMatch(/^added 2 to \S+; providers now github, gitlab; live sessions: not_needed\n$/);
    const sources = await cliJson<{ id: string; provider: string }[]>(kandev, ['sources', 'ls', task.id]);
    expect(sources.map((s) => s.provider).sort()).toEqual(['github', 'gitlab']);

    const notAttached = await runCli(kandev, ['sources', 'rm', '--yes', task.id, 'ffffffff']);
    expect(notAttached.code).toBe(3);
    const removed = await runCli(kandev, ['sources', 'rm', '--yes', task.id, repo.id]);
    expect(removed.stdout).toMatch(/^removed \S+ from \S+; providers now gitlab;/);
    expect((await cliJson<unknown[]>(kandev, ['sources', 'ls', task.id])).length).toBe(1);

    // On a terminal: "n" changes nothing, "y" archives.
    const no = startCliInTerminal(cleanup, kandev, ['tasks', 'archive', task.id]);
    await no.waitFor('[y/N]');
    no.write('n\r');
    expect(await no.exited).toBe(2);
    expect(
      ((await (await kandev.rest('GET', `/api/tasks/${task.id}`)).json()) as { archived_at: unknown }).archived_at,
    ).toBeNull();
    const yes = startCliInTerminal(cleanup, kandev, ['tasks', 'archive', task.id]);
    await yes.waitFor('[y/N]');
    yes.write('y\r');
    await yes.waitFor(/archived task \S+ \(Sources\)/);
    expect(await yes.exited).toBe(0);
    expect(
      ((await (await kandev.rest('GET', `/api/tasks/${task.id}`)).json()) as { archived_at: unknown }).archived_at,
    ).not.toBeNull();

    const badState = await runCli(kandev, ['tasks', 'state', task.id, 'finished']);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toMatch(/Allowed choices are todo, in_progress, review, done/);

    const back = await cliJson<{ archived_at: unknown }>(kandev, ['tasks', 'unarchive', task.id]);
    expect(back.archived_at).toBeNull();
    const moved = await cliJson<{ state: string }>(kandev, ['tasks', 'state', task.id.slice(0, 10), 'in_progress']);
    expect(moved.state).toBe('in_progress');
    const shown = await runCli(kandev, ['tasks', 'state', task.id, 'review']);
    expect(shown.stdout).toBe(`moved task ${task.id} (Sources): review\n`);
    // review → todo skips back over the work: refused (409, exit 5), the state kept.
    const refused = await runCli(kandev, ['tasks', 'state', task.id, 'todo']);
    expect(refused).toMatchObject({
      code: 5,
      stderr: expect.stringContaining('cannot move from review to todo') as unknown,
    });
    expect(await cliJson<{ state: string }>(kandev, ['tasks', 'show', task.id])).toMatchObject({ state: 'review' });
  });

  test('sessions, prompts and messages: resume, cancel, stop, queued prompts, the conversation, AGE and ERROR', async () => {
    const kandev = await backend();
    await cliJson(kandev, ['workspaces', 'create', 'w']);
    const task = await cliJson<Created>(kandev, ['tasks', 'create', 'Talk']);
    const launched = await runCli(kandev, ['launch', task.id.slice(0, 10)]);
    const session = /launched session (\S+)/.exec(launched.stdout)?.[1] ?? '';
    expect(session).not.toBe('');

    expect((await runCli(kandev, ['prompt', session.slice(0, 10), 'first words'])).code).toBe(0);
    const prompts = await cliJson<{ id: string; status: string; prompt: string }[]>(kandev, ['prompts', 'ls', session]);
    expect(prompts).toEqual([expect.objectContaining({ prompt: 'first words' })]);
    const promptTable = await runCli(kandev, ['prompts', 'ls', session, '-o', 'wide']);
    expect(promptTable.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+AGE\s+SOURCE\s+STOP\s+ERROR\s+PROMPT$/);

    const messages = await runCli(kandev, ['logs', task.id.slice(0, 10)]);
    expect(messages.stdout).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\S* \[\w{8}\] operator: first words$/m);
    const tail = await cliJson<{ content: string }[]>(kandev, ['messages', task.id, '--tail', '1']);
    expect(tail.map((m) => m.content)).toEqual(['first words']);

    const tools = await runCli(kandev, ['tools', session.slice(0, 10)]);
    expect(tools.stdout).toMatch(new RegExp(`^session ${session}: revision 1`));
    const resumed = await runCli(kandev, ['sessions', 'resume', session]);
    expect(resumed.stdout).toMatch(new RegExp(`^resumed session ${session}\\n`));
    expect(resumed.stdout).toMatch(/mcp_token: +\S+/);

    // An MCP-only session runs no turn: nothing to cancel, and the CLI says so.
    const cancel = await runCli(kandev, ['sessions', 'cancel', '--yes', session.slice(0, 10)]);
    expect(cancel).toMatchObject({ code: 0, stdout: `no turn was running in session ${session}\n` });
    expect((await runCli(kandev, ['sessions', 'stop', session])).code).toBe(2);
    const stopped = await runCli(kandev, ['sessions', 'stop', '--yes', session]);
    expect(stopped.stdout).toBe(`stopped session ${session}: cancelled\n`);

    // A profile whose agent cannot start: the launch fails and the list says why.
    const broken = await cliJson<Created>(kandev, ['profiles', 'create', 'broken', '--command', '/nonexistent/agent']);
    const other = await cliJson<Created>(kandev, ['tasks', 'create', 'Broken', '--profile', broken.id]);
    expect((await runCli(kandev, ['launch', other.id])).code).toBe(0);
    // The agent fails to start after the launch answered: wait for the backend to record it.
    const failed = await waitUntil(
      async () => {
        const listed = await cliJson<{ id: string; state: string; last_error: string | null }[]>(kandev, [
          'sessions',
          'ls',
          '--state',
          'failed',
        ]);
        return listed.length === 1 ? listed : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, what: 'the broken session to fail' },
    );
    expect(failed[0]?.last_error).toEqual(expect.any(String));
    const table = await runCli(kandev, ['sessions', 'ls', '--sort', 'newest']);
    const [header, first, second] = table.stdout.split('\n');
    expect(header).toMatch(/^ID\s+TASK\s+STATE\s+EXECUTOR\s+REVISION\s+AGE\s+ERROR$/);
    expect(first).toMatch(new RegExp(`^${failed[0]?.id}\\s.*failed.*\\d+s\\s+\\S`));
    expect(second).toMatch(new RegExp(`^${session}\\s.*cancelled.*\\d+s\\s+-$`));
    const limited = await cliJson<Created[]>(kandev, ['sessions', 'ls', '--sort', 'oldest', '--limit', '1']);
    expect(limited.map((s) => s.id)).toEqual([session]);

    // --failed and its opposite: the server filters, and the task list badges the failed task.
    const onlyFailed = await cliJson<Created[]>(kandev, ['sessions', 'ls', '--failed']);
    expect(onlyFailed.map((s) => s.id)).toEqual([failed[0]?.id]);
    const notFailed = await cliJson<Created[]>(kandev, ['sessions', 'ls', '--no-failed']);
    expect(notFailed.map((s) => s.id)).toEqual([session]);
    const states = await cliJson<Created[]>(kandev, ['sessions', 'ls', '--state', 'cancelled,failed', '--limit', '5']);
    expect(states.map((s) => s.id)).toEqual([failed[0]?.id, session]);
    expect((await runCli(kandev, ['sessions', 'ls', '--state', 'cancelled,gone'])).code).toBe(2);
    const failedTasks = await cliJson<Created[]>(kandev, ['tasks', 'ls', '--failed']);
    expect(failedTasks.map((t) => t.id)).toEqual([other.id]);
    const taskTable = await runCli(kandev, ['tasks', 'ls', '--failed']);
    expect(taskTable.stdout.split('\n')[1]).toMatch(new RegExp(`^${other.id}\\s+todo\\s+failed\\s+Broken$`));

    // The stopped session's task gets a new session, launched as it was.
    const relaunched = await runCli(kandev, ['sessions', 'relaunch', session.slice(0, 10)]);
    const fresh = /^relaunched session (\S+)/.exec(relaunched.stdout)?.[1] ?? '';
    expect(fresh).not.toBe('');
    expect(fresh).not.toBe(session);
    await runCli(kandev, ['prompt', fresh, 'to be cancelled']);
    const listed = await cliJson<{ id: string; status: string }[]>(kandev, ['prompts', 'ls', fresh]);
    // An MCP-only session has no agent to deliver to: the prompt stays queued until cancelled.
    const queued = listed.find((p) => p.status === 'queued');
    expect(queued).toBeDefined();
    const cancelled = await runCli(kandev, ['prompts', 'cancel', '--yes', fresh, queued?.id.slice(0, 10) ?? '']);
    expect(cancelled.stdout).toBe(`cancelled prompt ${queued?.id}\n`);
    const after = await cliJson<{ id: string; status: string }[]>(kandev, ['prompts', 'ls', fresh]);
    expect(after.map((p) => [p.id, p.status])).toContainEqual([queued?.id, 'cancelled']);
    // Cancelling it again changes nothing; -o json prints the prompt the backend answered with.
    const again = await cliJson<{ id: string; status: string }>(kandev, [
      'prompts',
      'cancel',
      '--yes',
      fresh,
      queued?.id ?? '',
    ]);
    expect([again.id, again.status]).toEqual([queued?.id, 'cancelled']);
  });

  test('an ambiguous id prefix is a usage error naming the candidates; a unique one works', async () => {
    const kandev = await backend();
    const workspace = await cliJson<Created>(kandev, ['workspaces', 'create', 'w']);
    // 17 ids over 16 hex digits: two share a first character.
    const ids: string[] = [];
    for (let i = 0; i < 17; i += 1) {
      const response = await kandev.rest('POST', '/api/tasks', { workspace_id: workspace.id, title: `t${i}` });
      ids.push(((await response.json()) as Created).id);
    }
    const prefix = ids.map((id) => id[0] ?? '').find((c, i, all) => all.indexOf(c) !== i) ?? '';
    const ambiguous = await runCli(kandev, ['tasks', 'show', prefix]);
    expect(ambiguous).toMatchObject({ code: 2, stdout: '' });
    expect(ambiguous.stderr).toMatch(new RegExp(`^kandev: task id prefix "${prefix}" is ambiguous; it matches:\\n`));
    for (const id of ids.filter((id) => id.startsWith(prefix))) expect(ambiguous.stderr).toContain(id);
    const unique = ids.find((id) => ids.filter((other) => other.startsWith(id.slice(0, 8))).length === 1) ?? '';
    expect(await cliJson<Created>(kandev, ['tasks', 'show', unique.slice(0, 8)])).toMatchObject({ id: unique });
    const newest = await cliJson<Created[]>(kandev, [
      'tasks',
      'ls',
      '--sort',
      'newest',
      '--limit',
      '2',
      '--search',
      'T1',
    ]);
    expect(newest.map((t) => t.id)).toEqual([ids[16], ids[15]]);
  });
});
