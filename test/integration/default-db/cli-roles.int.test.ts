// Roles through the built `kandev` CLI against a real backend: a CI token limited to one workspace
// made with `tokens create --role --workspace`, `whoami` showing it, and a verb its role lacks refused
// (exit 4) with the missing right named and nothing changed.
import { cliJson, runCli } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { startBackend } from '../../helpers/processes';

describe('kandev CLI and token roles', () => {
  const cleanup = useCleanup();

  test('a scoped operator token: whoami shows it, an admin verb is refused naming the right', async () => {
    const daemon = await startBackend(cleanup);
    const admin = { url: daemon.ready.url, token: daemon.apiToken };
    const workspace = await cliJson<{ id: string }>(admin, ['workspaces', 'create', 'ci']);
    const created = await runCli(admin, ['tokens', 'create', 'ci', '--role', 'operator', '--workspace', workspace.id]);
    expect(created.code).toBe(0);
    expect(created.stderr).toBe(
      `created operator token ${/token (\S+) /.exec(created.stderr)?.[1]} (ci) for workspaces ${workspace.id}; it is shown only now:\n`,
    );
    const ci = { ...admin, token: created.stdout.trim() };

    const me = await runCli(ci, ['whoami']);
    expect(me.code).toBe(0);
    expect(me.stdout).toMatch(/role:\s+operator/);
    expect(me.stdout).toContain(workspace.id);

    const refused = await runCli(ci, ['profiles', 'create', 'p', '--command', 'node']);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain("this token's role operator cannot POST /api/agent-profiles (needs admin)");
    expect(refused.stderr).toContain('kandev whoami');
    expect(await cliJson<unknown[]>(admin, ['profiles', 'ls'])).toEqual([]);

    // Its own workspace's work it does; a role above its own it cannot mint.
    expect((await runCli(ci, ['tasks', 'create', 'built by ci', '--workspace', workspace.id])).code).toBe(0);
    const minted = await runCli(ci, ['tokens', 'create', 'more', '--role', 'viewer']);
    expect(minted.code).toBe(4);
    const listed = await cliJson<{ name: string; role: string; workspaces: string[] | null }[]>(admin, [
      'tokens',
      'ls',
    ]);
    expect(listed.map((t) => [t.name, t.role, t.workspaces])).toEqual([
      ['admin', 'admin', null],
      ['ci', 'operator', [workspace.id]],
    ]);
  });
});
