// Roles and workspaces of API tokens over REST: GET /api/me, minting at most the caller's role and
// scope (403 naming what is missing, nothing stored), the list showing role, scope, creator and last
// use, and the lists of a limited token holding only its workspaces.
import { databaseDigester, launchConfigFor, sessionRow } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { startRolesBackend } from '../../helpers/roles-backend';

interface TokenView {
  id: string;
  name: string;
  role: string;
  workspaces: string[] | null;
  created_by: string | null;
  last_used_at: string | null;
}

describe('token roles and workspaces', () => {
  const cleanup = useCleanup();

  test('a limited admin mints within its role and workspaces only; the list shows who made what', async () => {
    const { env, baseUrl, admin, tokenFor } = await startRolesBackend(cleanup);
    const a = await admin.workspace('a');
    const b = await admin.workspace('b');
    const limited = new BackendApi(baseUrl, await tokenFor('admin', [a]));
    const me = (await limited.request<{ token_id: string; role: string; workspaces: string[] }>('GET', '/api/me')).body;
    expect(me).toMatchObject({ role: 'admin', workspaces: [a] });

    const digest = await databaseDigester(env.dataDir!, cleanup);
    const before = await digest();
    const refusals = await Promise.all([
      limited.request('POST', '/api/tokens', { name: 'x', role: 'operator', workspaces: [a, b] }),
      limited.request('POST', '/api/tokens', { name: 'x', role: 'operator' }),
      limited.request('POST', '/api/tokens', { name: 'x', role: 'owner', workspaces: [a] }),
    ]);
    expect(refusals.map((r) => [r.status, (r.body as { error: { message: string } }).error.message])).toEqual([
      [403, `${b}: not in this token's workspaces`],
      [403, "every workspace: not in this token's workspaces"],
      [400, expect.stringContaining('role') as string],
    ]);
    expect(await digest()).toEqual(before);

    const created = await limited.create<TokenView & { token: string }>('/api/tokens', {
      name: 'ci',
      role: 'operator',
      workspaces: [a],
    });
    expect(created).toMatchObject({ role: 'operator', workspaces: [a], created_by: me.token_id });
    // A viewer may not mint, even a viewer token.
    const viewer = new BackendApi(baseUrl, await tokenFor('viewer'));
    const denied = await viewer.request('POST', '/api/tokens', { name: 'v', role: 'viewer' });
    expect([denied.status, (denied.body as { error: { message: string } }).error.message]).toEqual([
      403,
      "this token's role viewer cannot POST /api/tokens (needs admin)",
    ]);
    // An unknown workspace, asked by an admin of every workspace: 404, nothing stored.
    expect((await admin.request('POST', '/api/tokens', { name: 'x', workspaces: ['nope'] })).status).toBe(404);

    // Used once: its last use shows. The limited admin lists only tokens within its workspaces.
    await new BackendApi(baseUrl, created.token).request('GET', '/api/me');
    const listed = (await limited.request<{ tokens: TokenView[] }>('GET', '/api/tokens')).body.tokens;
    expect(listed.map((t) => t.workspaces)).toEqual([[a], [a]]);
    const ci = listed.find((t) => t.id === created.id);
    expect(ci?.last_used_at).not.toBeNull();
    const all = (await admin.request<{ tokens: TokenView[] }>('GET', '/api/tokens')).body.tokens;
    expect(all.length).toBeGreaterThan(listed.length);
    // Another workspace's token is not found by a limited admin; revoking its own scope's works.
    const other = all.find((t) => t.workspaces === null && t.role === 'viewer');
    expect((await limited.request('DELETE', `/api/tokens/${other?.id ?? ''}`)).status).toBe(404);
    expect((await limited.request('DELETE', `/api/tokens/${created.id}`)).status).toBe(204);
  });

  test("a limited token's lists hold only its workspaces", async () => {
    const { backend, baseUrl, admin, tokenFor } = await startRolesBackend(cleanup);
    const ids: Record<string, { workspace: string; task: string; session: string; repo: string }> = {};
    for (const name of ['a', 'b']) {
      const workspace = await admin.workspace(name);
      const repo = (await admin.repository(workspace, { remote_url: `https://github.com/acme/${name}.git` })).id;
      const task = (await admin.task(workspace, { title: name })).id;
      const config = launchConfigFor({ id: `s-${name}`, taskId: task, workspaceId: workspace });
      await backend.uow.read.sessions.insert(
        sessionRow(config, { at: '2026-12-05T10:00:00.000Z', state: 'completed' }),
      );
      ids[name] = { workspace, task, session: config.sessionId, repo };
    }
    const a = ids.a!;
    const b = ids.b!;
    const viewer = new BackendApi(baseUrl, await tokenFor('viewer', [a.workspace]));
    const get = async <T>(path: string) => (await viewer.request<T>('GET', path)).body;
    expect((await get<{ workspaces: { id: string }[] }>('/api/workspaces')).workspaces.map((w) => w.id)).toEqual([
      a.workspace,
    ]);
    expect((await get<{ sessions: { id: string }[] }>('/api/sessions')).sessions.map((s) => s.id)).toEqual([a.session]);
    expect((await get<{ repositories: { id: string }[] }>('/api/repositories')).repositories.map((r) => r.id)).toEqual([
      a.repo,
    ]);
    expect((await viewer.request('GET', `/api/tasks?workspace_id=${b.workspace}`)).status).toBe(403);
    expect((await viewer.request('GET', `/api/sessions?task_id=${b.task}`)).status).toBe(404);
    // Another workspace's task answers as an unknown one does.
    const foreign = await viewer.request<{ error: { message: string } }>('GET', `/api/tasks/${b.task}`);
    expect([foreign.status, foreign.body.error.message]).toEqual([404, `task ${b.task} not found`]);
    // Padded, as the route's id schema would trim it: still refused.
    expect((await viewer.request('GET', `/api/tasks/%20${b.task}%20`)).status).toBe(404);
    expect((await viewer.request('GET', `/api/sessions/%20${b.session}`)).status).toBe(404);
    const unknown = await viewer.request<{ error: { message: string } }>('GET', '/api/tasks/no-such-task');
    expect([unknown.status, unknown.body.error.message]).toEqual([404, 'task no-such-task not found']);
  });
});
