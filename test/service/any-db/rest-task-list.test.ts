// GET /api/tasks over the backend's real routers on a loopback port (services in process over a real
// database): newest first by default, every sort paged with next_cursor, title search, the filters,
// each item's `attention`, and a workspace of 1,000 tasks paged through once.
import {
  createApp,
  createInProcessBackend,
  launchConfigFor,
  listen,
  repositoryRow,
  sessionRow,
  taskRow,
} from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';

interface Item {
  id: string;
  title: string;
  pending_action: string | null;
  attention: {
    latest_session: { id: string; state: string; last_error: string | null } | null;
    failed: boolean;
    pending_questions: number;
  };
}
type TaskPage = { tasks: Item[]; next_cursor: string | null };

/** Minute `n` of a fixed day: task n is created at it, so creation order is n's order. */
const at = (n: number) => new Date(Date.UTC(2026, 11, 1, 0, n)).toISOString();

async function serve(cleanup: Cleanup) {
  const env = await createInProcessBackend(cleanup);
  const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  const api = new BackendApi(`http://127.0.0.1:${server.port}`);
  const workspaceId = await api.workspace();
  const stores = env.backend.uow.read;
  return { env, api, workspaceId, stores };
}

/** Every page, following next_cursor; the ids in the order listed. */
async function allIds(api: BackendApi, path: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { status: number; body: TaskPage } = await api.request<TaskPage>(
      'GET',
      `${path}&limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    expect(page.status).toBe(200);
    ids.push(...page.body.tasks.map((task) => task.id));
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return ids;
}

describe('GET /api/tasks', () => {
  const cleanup = useCleanup();

  test('newest first by default; every sort pages through each task once', async () => {
    const { api, workspaceId, stores } = await serve(cleanup);
    const ids = ['t0', 't1', 't2', 't3', 't4', 't5', 't6'];
    // Two tasks share a creation time: the id breaks the tie, in the sort's direction.
    for (const [n, id] of ids.entries()) await stores.tasks.insert(taskRow(id, workspaceId, at(Math.min(n, 5))));
    // Updated in another order than created.
    for (const [n, id] of ['t3', 't0', 't6'].entries()) {
      await stores.tasks.update(id, { updatedAt: at(100 + n) });
    }
    const base = `/api/tasks?workspace_id=${workspaceId}`;
    const newest = [...ids].reverse();
    expect(await allIds(api, base, 2)).toEqual(newest);
    expect(await allIds(api, `${base}&sort=created_desc`, 3)).toEqual(newest);
    expect(await allIds(api, `${base}&sort=created_asc`, 2)).toEqual(ids);
    expect(await allIds(api, `${base}&sort=updated_desc`, 2)).toEqual(['t6', 't0', 't3', 't5', 't4', 't2', 't1']);
    expect(await allIds(api, `${base}&sort=updated_asc`, 4)).toEqual(['t1', 't2', 't4', 't5', 't3', 't0', 't6']);

    const first = await api.request<TaskPage>('GET', `${base}&limit=2`);
    const mixed = await api.request<{ error: { message: string } }>(
      'GET',
      `${base}&sort=created_asc&cursor=${encodeURIComponent(first.body.next_cursor ?? '')}`,
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.message).toContain('sort=created_desc');
  });

  test('q matches a title containing the text, case-insensitive, with % and _ taken literally', async () => {
    const { api, workspaceId } = await serve(cleanup);
    const fix = await api.task(workspaceId, { title: 'Fix the LOGIN page' });
    const login = await api.task(workspaceId, { title: 'login: 100% coverage' });
    await api.task(workspaceId, { title: 'Write docs' });
    const underscore = await api.task(workspaceId, { title: 'rename user_id' });
    const base = `/api/tasks?workspace_id=${workspaceId}&sort=created_asc`;
    expect(await allIds(api, `${base}&q=login`, 10)).toEqual([fix.id, login.id]);
    expect(await allIds(api, `${base}&q=${encodeURIComponent('100%')}`, 10)).toEqual([login.id]);
    expect(await allIds(api, `${base}&q=${encodeURIComponent('%')}`, 10)).toEqual([login.id]);
    expect(await allIds(api, `${base}&q=${encodeURIComponent('r_i')}`, 10)).toEqual([underscore.id]);
    expect(await allIds(api, `${base}&q=nothing`, 10)).toEqual([]);
  });

  test('filters by state, autopilot, provider, pending question and failed; items carry attention', async () => {
    const { api, workspaceId, stores } = await serve(cleanup);
    await stores.repositories.insert(repositoryRow('gh', workspaceId, at(0)));
    await stores.repositories.insert(repositoryRow('gl', workspaceId, at(0), { provider: 'gitlab' }));
    const plain = await api.task(workspaceId, { title: 'plain' });
    const pilot = await api.task(workspaceId, { title: 'pilot', autopilot: true, repository_ids: ['gh'] });
    const asking = await api.task(workspaceId, { title: 'asking', repository_ids: ['gl'] });
    const failed = await api.task(workspaceId, { title: 'failed' });
    const recovered = await api.task(workspaceId, { title: 'recovered' });
    expect((await api.request('PATCH', `/api/tasks/${plain.id}`, { state: 'in_progress' })).status).toBe(200);

    const session = async (id: string, taskId: string, n: number, state: 'failed' | 'waiting_for_input') =>
      stores.sessions.insert(
        sessionRow(launchConfigFor({ id, taskId, workspaceId }), {
          at: at(n),
          state,
          lastError: state === 'failed' ? 'agent exited with code 1' : null,
        }),
      );
    await session('s-asking', asking.id, 1, 'waiting_for_input');
    await session('s-failed', failed.id, 1, 'failed');
    await session('s-old', recovered.id, 1, 'failed');
    await session('s-new', recovered.id, 2, 'waiting_for_input');
    await stores.questions.insert({
      id: 'q1',
      taskId: asking.id,
      sessionId: 's-asking',
      callId: 'call-1',
      kind: 'user',
      questions: [{ id: 'q1', prompt: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }],
      context: null,
      state: 'pending',
      answers: null,
      answeredBy: null,
      closedReason: null,
      answerDelivery: null,
      createdAt: at(3),
      answeredAt: null,
      expiresAt: '2999-01-01T00:00:00.000Z',
    });

    const base = `/api/tasks?workspace_id=${workspaceId}&sort=created_asc`;
    const ids = (query: string) => allIds(api, `${base}&${query}`, 10);
    expect(await ids('state=in_progress')).toEqual([plain.id]);
    expect(await ids('state=todo,in_progress')).toHaveLength(5);
    expect(await ids('autopilot=true')).toEqual([pilot.id]);
    expect(await ids('autopilot=false')).not.toContain(pilot.id);
    expect(await ids('provider=github')).toEqual([pilot.id]);
    expect(await ids('provider=gitlab')).toEqual([asking.id]);
    expect(await ids('pending_question=true')).toEqual([asking.id]);
    expect(await ids('pending_question=false')).not.toContain(asking.id);
    expect(await ids('failed=true')).toEqual([failed.id]);
    expect(await ids('failed=false')).toEqual([plain.id, pilot.id, asking.id, recovered.id]);
    expect(await ids('failed=true&state=in_progress')).toEqual([]);

    const page = await api.request<TaskPage>('GET', `${base}&limit=10`);
    const byId = new Map(page.body.tasks.map((task) => [task.id, task]));
    expect(byId.get(plain.id)?.attention).toEqual({ latest_session: null, failed: false, pending_questions: 0 });
    expect(byId.get(asking.id)).toMatchObject({
      pending_action: 'clarification',
      attention: { latest_session: { id: 's-asking', state: 'waiting_for_input' }, pending_questions: 1 },
    });
    expect(byId.get(failed.id)?.attention).toMatchObject({
      failed: true,
      latest_session: { id: 's-failed', state: 'failed', last_error: 'agent exited with code 1' },
    });
    expect(byId.get(recovered.id)?.attention).toMatchObject({ failed: false, latest_session: { id: 's-new' } });
  });

  test.each([
    ['sort=oldest'],
    ['state=todo,sleeping'],
    ['state='],
    ['autopilot=yes'],
    ['provider=bitbucket'],
    ['failed=1'],
    ['q='],
    ['pending_question=maybe'],
    ['cursor=eyJ4IjoxfQ'],
  ])('?%s is a 400', async (query) => {
    const { api, workspaceId } = await serve(cleanup);
    const response = await api.request<{ error: { message: string } }>(
      'GET',
      `/api/tasks?workspace_id=${workspaceId}&${query}`,
    );
    expect(response.status).toBe(400);
    expect(response.body.error.message.length).toBeGreaterThan(0);
  });

  test('a workspace of 1,000 tasks: the newest on page one, the oldest reachable, each once', async () => {
    const { api, workspaceId, env } = await serve(cleanup);
    const ids = Array.from({ length: 1000 }, (_, n) => `task-${String(n).padStart(4, '0')}`);
    await env.backend.uow.transaction(async (stores) => {
      for (const [n, id] of ids.entries()) await stores.tasks.insert(taskRow(id, workspaceId, at(n)));
    });
    const first = await api.request<TaskPage>('GET', `/api/tasks?workspace_id=${workspaceId}&limit=200`);
    expect(first.body.tasks[0]?.id).toBe('task-0999');
    const listed = await allIds(api, `/api/tasks?workspace_id=${workspaceId}`, 200);
    expect(listed).toEqual([...ids].reverse());
  });
});
