// The listing and archive routes over the backend's real routers on a loopback port (services in process
// over real SQLite, no agentctl): GET /api/workspaces, GET /api/sessions, GET /api/tasks/:id/sessions
// (cursor pages, filters, bad input refused with nothing changed) and DELETE /api/tasks/:id.
import {
  type AgentSessionState,
  createApp,
  createInProcessBackend,
  launchConfigFor,
  listen,
  sessionRow,
} from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';

const AT = '2026-12-01T10:00:00.000Z';

interface Listed {
  id: string;
  [key: string]: unknown;
}
type SessionPage = { sessions: Listed[]; next_cursor: string | null };

async function serve(cleanup: Cleanup) {
  const env = await createInProcessBackend(cleanup);
  const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  const api = new BackendApi(`http://127.0.0.1:${server.port}`);
  const insertSession = async (
    id: string,
    task: { taskId: string; workspaceId: string },
    state: AgentSessionState,
    executor = 'local',
  ) => {
    await env.backend.uow.read.sessions.insert(
      sessionRow(launchConfigFor({ id, ...task }), { at: AT, state, executor }),
    );
  };
  return { env, api, insertSession };
}

/** Keyset order: created_at, then id, compared as the database compares them (code unit by code unit). */
function byPosition(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  const left = `${a.created_at} ${a.id}`;
  const right = `${b.created_at} ${b.id}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Every page of a listing, following next_cursor. */
async function allPages(api: BackendApi, path: string, key: 'sessions' | 'workspaces'): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const url: string = `${path}${sep}limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = await api.request<Record<string, unknown>>('GET', url);
    expect(page.status).toBe(200);
    ids.push(...(page.body[key] as Listed[]).map((item) => item.id));
    cursor = page.body.next_cursor as string | null;
  } while (cursor !== null);
  return ids;
}

describe('REST listings and task archive', () => {
  const cleanup = useCleanup();

  test('GET /api/workspaces pages through every workspace once, oldest first', async () => {
    const { api } = await serve(cleanup);
    const created: string[] = [];
    for (const name of ['a', 'b', 'c', 'd', 'e']) created.push(await api.workspace(name));
    // Workspaces made in the same millisecond tie on created_at and are ordered by id, as the keyset is.
    const whole = await api.request<{ workspaces: (Listed & { created_at: string })[] }>('GET', '/api/workspaces');
    const creationOrder = whole.body.workspaces
      .map(({ id, created_at }) => ({ id, created_at }))
      .sort((a, b) => byPosition(a, b))
      .map(({ id }) => id);
    expect([...creationOrder].sort()).toEqual([...created].sort());
    expect(await allPages(api, '/api/workspaces', 'workspaces')).toEqual(creationOrder);
    const first = await api.request<{ workspaces: Listed[] }>('GET', '/api/workspaces?limit=1');
    expect(first.body.workspaces[0]).toEqual({
      id: creationOrder[0],
      name: expect.any(String),
      created_at: expect.any(String),
    });
  });

  test.each([['limit=0'], ['limit=abc'], ['cursor=not-a-cursor'], ['colour=blue']])(
    'GET /api/workspaces?%s is 400',
    async (query) => {
      const { api } = await serve(cleanup);
      const response = await api.request<{ error: { message: string } }>('GET', `/api/workspaces?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.message.length).toBeGreaterThan(0);
    },
  );

  test('GET /api/sessions filters by state, task and executor, pages, and never shows a token hash', async () => {
    const { api, insertSession } = await serve(cleanup);
    const workspaceId = await api.workspace();
    const one = { workspaceId, taskId: (await api.task(workspaceId, { title: 'one' })).id };
    const two = { workspaceId, taskId: (await api.task(workspaceId, { title: 'two' })).id };
    await insertSession('s1', one, 'waiting_for_input');
    await insertSession('s2', one, 'completed');
    await insertSession('s3', two, 'waiting_for_input', 'remote');
    await insertSession('s4', two, 'failed');
    await insertSession('s5', one, 'cancelled');

    // Newest first by default (equal creation times: by id, the same direction).
    expect(await allPages(api, '/api/sessions', 'sessions')).toEqual(['s5', 's4', 's3', 's2', 's1']);
    expect(await allPages(api, '/api/sessions?sort=created_asc', 'sessions')).toEqual(['s1', 's2', 's3', 's4', 's5']);
    expect(await allPages(api, '/api/sessions?state=waiting_for_input', 'sessions')).toEqual(['s3', 's1']);
    expect(await allPages(api, `/api/sessions?task_id=${one.taskId}&sort=created_asc`, 'sessions')).toEqual([
      's1',
      's2',
      's5',
    ]);
    expect(await allPages(api, '/api/sessions?executor=remote', 'sessions')).toEqual(['s3']);
    expect(await allPages(api, `/api/tasks/${two.taskId}/sessions`, 'sessions')).toEqual(['s3', 's4']);

    const listed = await api.request<SessionPage>('GET', '/api/sessions?limit=1&sort=created_asc');
    expect(listed.body.sessions[0]).toEqual({
      id: 's1',
      task_id: one.taskId,
      state: 'waiting_for_input',
      executor: 'local',
      surface: 'kanban_task',
      revision: 1,
      applied_revision: 1,
      last_error: null,
      refresh_error: null,
      health: 'ok',
      created_at: AT,
      updated_at: AT,
    });
    expect(JSON.stringify(listed.body)).not.toContain('ab'.repeat(32));
  });

  test.each([
    ['/api/sessions?state=sleeping'],
    ['/api/sessions?limit=-1'],
    ['/api/sessions?executor='],
    ['/api/sessions?cursor=eyJ4IjoxfQ'],
    ['/api/sessions?task=1'],
    ['/api/sessions?sort=oldest'],
    ['/api/sessions?failed=yes'],
    ['/api/sessions?state=failed,sleeping'],
  ])('GET %s is 400', async (path) => {
    const { api } = await serve(cleanup);
    const response = await api.request<{ error: { message: string } }>('GET', path);
    expect(response.status).toBe(400);
    expect(response.body.error.message.length).toBeGreaterThan(0);
  });

  test('GET /api/tasks/:id/sessions is 404 for an unknown task and 400 for a bad query', async () => {
    const { api } = await serve(cleanup);
    expect((await api.request('GET', '/api/tasks/nope/sessions')).status).toBe(404);
    const workspaceId = await api.workspace();
    const task = await api.task(workspaceId, { title: 't' });
    expect((await api.request('GET', `/api/tasks/${task.id}/sessions?state=running`)).status).toBe(400);
    expect(await api.request('GET', `/api/tasks/${task.id}/sessions`)).toEqual({
      status: 200,
      body: { sessions: [], next_cursor: null },
    });
  });

  test('DELETE /api/tasks/:id archives the task, stops its sessions, refuses launches; idempotent', async () => {
    const { api, insertSession } = await serve(cleanup);
    const workspaceId = await api.workspace();
    const task = { workspaceId, taskId: (await api.task(workspaceId, { title: 'gone' })).id };
    const kept = await api.task(workspaceId, { title: 'kept' });
    await insertSession('live', task, 'waiting_for_input');
    await insertSession('done', task, 'completed');

    expect((await api.request('DELETE', `/api/tasks/${task.taskId}`)).status).toBe(204);
    const sessions = await api.request<SessionPage>('GET', `/api/tasks/${task.taskId}/sessions`);
    // Same created_at: ties go by id.
    expect(sessions.body.sessions.map((s) => [s.id, s.state])).toEqual([
      ['done', 'completed'],
      ['live', 'cancelled'],
    ]);
    const archived = await api.request<{ archived_at: string | null }>('GET', `/api/tasks/${task.taskId}`);
    expect(archived.body.archived_at).toEqual(expect.any(String));

    const listed = await api.request<{ tasks: Listed[] }>('GET', `/api/tasks?workspace_id=${workspaceId}`);
    expect(listed.body.tasks.map((t) => t.id)).toEqual([kept.id]);
    const all = await api.request<{ tasks: Listed[] }>(
      'GET',
      `/api/tasks?workspace_id=${workspaceId}&include_archived=true&sort=created_asc`,
    );
    expect(all.body.tasks.map((t) => t.id)).toEqual([task.taskId, kept.id]);

    const launch = await api.request('POST', `/api/tasks/${task.taskId}/sessions`, {});
    expect(launch.status).toBe(409);
    expect((await api.request<SessionPage>('GET', `/api/tasks/${task.taskId}/sessions`)).body.sessions).toHaveLength(2);

    expect((await api.request('DELETE', `/api/tasks/${task.taskId}`)).status).toBe(204);
    const again = await api.request<{ archived_at: string | null }>('GET', `/api/tasks/${task.taskId}`);
    expect(again.body.archived_at).toBe(archived.body.archived_at);
    expect((await api.request('DELETE', '/api/tasks/unknown-task')).status).toBe(404);
  });
});
