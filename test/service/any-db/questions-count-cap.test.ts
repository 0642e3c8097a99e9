// GET /api/questions over a long history: each state's count stops at 1000 (that many or more), below
// it counts are exact, and expiry still moves pending questions past their time to expired.
import {
  createApp,
  createInProcessBackend,
  launchConfigFor,
  listen,
  sessionRow,
  taskRow,
} from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';

const AT = '2026-12-01T00:00:00.000Z';
const LATER = '2099-01-01T00:00:00.000Z';

describe('GET /api/questions counts', () => {
  const cleanup = useCleanup();

  test('stop at 1000 per state, exact below, by the state a reader sees', async () => {
    const env = await createInProcessBackend(cleanup);
    const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const api = new BackendApi(`http://127.0.0.1:${server.port}`);
    const workspaceId = await api.workspace('counts');
    const specs = [
      ...Array.from({ length: 1_005 }, () => ({ state: 'answered' as const, expiresAt: LATER })),
      ...Array.from({ length: 3 }, () => ({ state: 'pending' as const, expiresAt: LATER })),
      ...Array.from({ length: 2 }, () => ({ state: 'pending' as const, expiresAt: AT })),
    ] as const;
    await env.backend.uow.transaction(async (stores) => {
      await stores.tasks.insert(taskRow('t', workspaceId, AT));
      await stores.sessions.insert(sessionRow(launchConfigFor({ id: 's', taskId: 't', workspaceId }), { at: AT }));
      for (const [n, spec] of specs.entries()) {
        await stores.questions.insert({
          id: `q${n}`,
          taskId: 't',
          sessionId: 's',
          callId: `c${n}`,
          kind: 'user',
          questions: [{ id: 'q1', prompt: 'Which?', options: [{ label: 'A' }, { label: 'B' }] }],
          context: null,
          state: spec.state,
          answers: spec.state === 'answered' ? [{ question_index: 0, question_id: 'q1', option: 'A' }] : null,
          answeredBy: spec.state === 'answered' ? 'operator' : null,
          answerDelivery: spec.state === 'answered' ? 'waiting_call' : null,
          closedReason: null,
          createdAt: AT,
          answeredAt: spec.state === 'answered' ? AT : null,
          expiresAt: spec.expiresAt,
        });
      }
    });
    const page = await api.request<{ counts: Record<string, number>; questions: unknown[] }>(
      'GET',
      `/api/questions?workspace_id=${workspaceId}&state=pending`,
    );
    expect(page.status).toBe(200);
    expect(page.body.counts).toEqual({ pending: 3, answered: 1000, expired: 2, cancelled: 0 });
    expect(page.body.questions).toHaveLength(3);
  });
});
