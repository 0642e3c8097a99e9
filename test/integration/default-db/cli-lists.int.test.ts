// `kandev tasks ls`, `sessions ls` and `kandev timeline` over a real backend: the backend sorts,
// searches, filters and pages; the CLI passes the flags and stops reading at --limit. What each list
// shows is checked against what was created, in the order created.
import { type CliEnv, cliJson, runCli } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';

interface Listed {
  id: string;
  title: string;
  state: string;
}

describe('kandev lists the backend sorts and filters', () => {
  const cleanup = useCleanup();

  async function backend(): Promise<CliEnv> {
    const daemon = await startBackend(cleanup);
    return { url: daemon.ready.url, token: daemon.apiToken };
  }

  const titles = (items: Listed[]) => items.map((t) => t.title);

  test('tasks ls: newest first, --limit, --sort, --search, --state, --autopilot, --provider, every workspace', async () => {
    const kandev = await backend();
    const one = await cliJson<{ id: string }>(kandev, ['workspaces', 'create', 'one']);
    const two = await cliJson<{ id: string }>(kandev, ['workspaces', 'create', 'two']);
    const repo = await cliJson<{ id: string }>(kandev, [
      'repos',
      'create',
      'https://github.com/acme/a.git',
      '-w',
      one.id,
    ]);
    const make = async (title: string, workspace: string, ...more: string[]) =>
      cliJson<{ id: string }>(kandev, ['tasks', 'create', title, '--workspace', workspace, ...more]);
    await make('alpha importer', one.id, '--repo', repo.id);
    const second = await make('beta exporter', one.id);
    await make('Alpha report', two.id, '--autopilot');
    await make('gamma', one.id);
    await cliJson(kandev, ['tasks', 'state', second.id, 'in_progress']);

    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls']))).toEqual([
      'gamma',
      'Alpha report',
      'beta exporter',
      'alpha importer',
    ]);
    // The first n across both workspaces, merged in the order asked for.
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--limit', '2']))).toEqual(['gamma', 'Alpha report']);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--sort', 'oldest', '--limit', '3']))).toEqual([
      'alpha importer',
      'beta exporter',
      'Alpha report',
    ]);
    // The state move touched beta last.
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--sort', 'updated', '--limit', '1']))).toEqual([
      'beta exporter',
    ]);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--search', 'ALPHA']))).toEqual([
      'Alpha report',
      'alpha importer',
    ]);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '-q', 'alpha', '-w', one.id]))).toEqual([
      'alpha importer',
    ]);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--state', 'in_progress']))).toEqual([
      'beta exporter',
    ]);
    expect(
      titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--state', 'todo,in_progress', '-w', one.id])),
    ).toEqual(['gamma', 'beta exporter', 'alpha importer']);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--autopilot']))).toEqual(['Alpha report']);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--no-autopilot', '--limit', '1']))).toEqual([
      'gamma',
    ]);
    expect(titles(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--provider', 'github']))).toEqual([
      'alpha importer',
    ]);
    expect(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--pending-question'])).toEqual([]);
    expect(await cliJson<Listed[]>(kandev, ['tasks', 'ls', '--provider', 'gitlab'])).toEqual([]);

    const wide = await runCli(kandev, ['tasks', 'ls', '-o', 'wide', '--search', 'report']);
    expect(wide.stdout.split('\n')[0]).toMatch(
      /^ID\s+STATE\s+ATTENTION\s+AGE\s+WORKSPACE\s+PROVIDERS\s+AUTOPILOT\s+TITLE$/,
    );
    expect(wide.stdout.split('\n')[1]).toMatch(new RegExp(`\\s${two.id}\\s+-\\s+yes\\s+Alpha report$`));

    for (const bad of [
      ['--state', 'finished'],
      ['--sort', 'title'],
      ['--provider', 'svn'],
      ['--limit', '0'],
    ]) {
      const refused = await runCli(kandev, ['tasks', 'ls', ...bad]);
      expect([bad, refused.code]).toEqual([bad, 2]);
    }
  });

  test('timeline (and tasks timeline): the task history with dates, -o json, --limit pages', async () => {
    const kandev = await backend();
    await cliJson(kandev, ['workspaces', 'create', 'w']);
    const task = await cliJson<{ id: string }>(kandev, ['tasks', 'create', 'History']);
    const launched = await cliJson<{ session_id: string }>(kandev, ['launch', task.id]);
    await runCli(kandev, ['prompt', launched.session_id, 'hello there']);

    const entries = await cliJson<{ id: string; kind: string; session_id: string | null; at: string }[]>(kandev, [
      'timeline',
      task.id.slice(0, 10),
    ]);
    const kinds = entries.map((e) => e.kind);
    expect(kinds).toContain('prompt');
    expect(kinds).toContain('state_change');
    expect(entries.every((e) => /^\d{4}-\d\d-\d\dT/.test(e.at))).toBe(true);
    const prompt = entries.find((e) => e.kind === 'prompt');
    expect(prompt).toMatchObject({ text: 'hello there', status: 'queued' });

    // --limit 1 reads one page of one: the first entry, as the full listing has it.
    const first = await cliJson<{ id: string }[]>(kandev, ['tasks', 'timeline', task.id, '--limit', '1']);
    expect(first.map((e) => e.id)).toEqual([entries[0]?.id]);
    // A limit of the whole length: every entry once, in order.
    const paged = await cliJson<{ id: string }[]>(kandev, ['timeline', task.id, '--limit', String(entries.length)]);
    expect(paged.map((e) => e.id)).toEqual(entries.map((e) => e.id));

    const table = await runCli(kandev, ['timeline', task.id]);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^AT\s+SESSION\s+KIND\s+STATUS\s+DURATION\s+WHAT$/);
    expect(lines).toHaveLength(entries.length + 1);
    expect(table.stdout).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\S*\s+\S+\s+prompt\s+queued\s+-\s+operator: hello there$/m,
    );
    expect((await runCli(kandev, ['timeline', 'ffffffff'])).code).toBe(3);
  });
});
