// GET /api/questions as the operator's inbox over the backend's real routers (services in process over
// a real database): state as a reader sees it (a pending question past its expiry is expired), task and
// workspace filters, cursor pages in either creation order, and the counts per state under the same filters.
import { createApp, createInProcessBackend, launchConfigFor, listen, sessionRow } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';

const AT = '2026-12-01T10:00:00.000Z';
const at = (n: number) => new Date(Date.UTC(2026, 11, 1, 9, n)).toISOString();

type Inbox = {
  questions: { id: string; state: string }[];
  next_cursor: string | null;
  counts: Record<'pending' | 'answered' | 'expired' | 'cancelled', number>;
};

describe('GET /api/questions', () => {
  const cleanup = useCleanup();

  test('filters by the state a reader sees, task and workspace, pages, and counts per state', async () => {
    const env = await createInProcessBackend(cleanup);
    const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const api = new BackendApi(`http://127.0.0.1:${server.port}`);
    const stores = env.backend.uow.read;
    const [wsA, wsB] = [await api.workspace('a'), await api.workspace('b')];
    const taskA = (await api.task(wsA, { title: 'a' })).id;
    const taskB = (await api.task(wsB, { title: 'b' })).id;
    for (const [sessionId, taskId, workspaceId] of [
      ['sa', taskA, wsA],
      ['sb', taskB, wsB],
    ] as const) {
      await stores.sessions.insert(sessionRow(launchConfigFor({ id: sessionId, taskId, workspaceId }), { at: AT }));
    }
    const question = (id: string, n: number, taskId: string, state: 'pending' | 'answered', expiresAt: string) =>
      stores.questions.insert({
        id,
        taskId,
        sessionId: taskId === taskA ? 'sa' : 'sb',
        callId: `call-${id}`,
        kind: 'user',
        questions: [{ id: 'q1', prompt: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }],
        context: null,
        state,
        answers: state === 'answered' ? [{ question_index: 0, question_id: 'q1', option: 'A' }] : null,
        answeredBy: state === 'answered' ? 'operator' : null,
        closedReason: null,
        answerDelivery: state === 'answered' ? 'waiting_call' : null,
        createdAt: at(n),
        answeredAt: state === 'answered' ? at(n) : null,
        expiresAt,
      });
    const FUTURE = '2999-01-01T00:00:00.000Z';
    await question('q-1', 1, taskA, 'pending', FUTURE);
    await question('q-2', 2, taskA, 'pending', '2000-01-01T00:00:00.000Z'); // past its expiry: expired
    await question('q-3', 3, taskA, 'pending', FUTURE);
    await question('q-4', 4, taskB, 'pending', FUTURE);
    await question('q-5', 5, taskA, 'answered', FUTURE);

    const get = async (query: string) => {
      const response = await api.request<Inbox>('GET', `/api/questions?${query}`);
      expect(response.status).toBe(200);
      return response.body;
    };
    const all = await get('');
    expect(all.questions.map((q) => [q.id, q.state])).toEqual([
      ['q-1', 'pending'],
      ['q-2', 'expired'],
      ['q-3', 'pending'],
      ['q-4', 'pending'],
      ['q-5', 'answered'],
    ]);
    expect(all.counts).toEqual({ pending: 3, answered: 1, expired: 1, cancelled: 0 });
    expect((await get('state=expired')).questions.map((q) => q.id)).toEqual(['q-2']);

    // The workspace filter applies to the counts too; state does not (the inbox tabs).
    const first = await get(`workspace_id=${wsA}&state=pending&limit=1`);
    expect(first.questions.map((q) => q.id)).toEqual(['q-1']);
    expect(first.counts).toEqual({ pending: 2, answered: 1, expired: 1, cancelled: 0 });
    const second = await get(
      `workspace_id=${wsA}&state=pending&limit=1&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect(second.questions.map((q) => q.id)).toEqual(['q-3']);
    expect(second.next_cursor).toBeNull();
    expect((await get(`task_id=${taskB}`)).counts).toEqual({ pending: 1, answered: 0, expired: 0, cancelled: 0 });

    // Newest first: the pages walk back in time, and the state filter still applies.
    const ids = (inbox: Inbox) => inbox.questions.map((q) => q.id);
    const newest = await get('sort=created_desc&limit=2');
    expect(ids(newest)).toEqual(['q-5', 'q-4']);
    const older = await get(`sort=created_desc&limit=2&cursor=${encodeURIComponent(newest.next_cursor ?? '')}`);
    expect(ids(older)).toEqual(['q-3', 'q-2']);
    const oldest = await get(`sort=created_desc&limit=2&cursor=${encodeURIComponent(older.next_cursor ?? '')}`);
    expect(ids(oldest)).toEqual(['q-1']);
    expect(oldest.next_cursor).toBeNull();
    expect(ids(await get('sort=created_desc&state=pending'))).toEqual(['q-4', 'q-3', 'q-1']);
    expect(ids(await get('sort=created_asc&limit=2'))).toEqual(['q-1', 'q-2']);

    // A cursor is a position in one order: passing it with the other sort is refused.
    for (const mixed of [
      `cursor=${encodeURIComponent(newest.next_cursor ?? '')}`,
      `sort=created_asc&cursor=${encodeURIComponent(newest.next_cursor ?? '')}`,
      `sort=created_desc&workspace_id=${wsA}&state=pending&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    ]) {
      const refused = await api.request<{ error: { message: string } }>('GET', `/api/questions?${mixed}`);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('pass the same sort');
    }

    for (const bad of ['state=open', 'limit=0', 'cursor=nope', 'colour=red', 'sort=newest']) {
      expect((await api.request('GET', `/api/questions?${bad}`)).status).toBe(400);
    }
  });
});
