// Retention of ended sessions' details over a real database: sessions that ended before the cutoff lose
// their tool-list revisions and their last tool list, in batches; their state changes stay, and so does
// everything of sessions still live or ended after the cutoff.
import {
  createInProcessBackend,
  launchConfigFor,
  pruneEndedSessionDetails,
  sessionRow,
  taskRow,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';

const OLD = '2026-08-01T00:00:00.000Z';
const RECENT = '2026-11-30T00:00:00.000Z';
const CUTOFF = '2026-09-01T00:00:00.000Z';

describe('ended sessions: detail retention', () => {
  const cleanup = useCleanup();

  test('only the details of sessions ended before the cutoff go, a few rows a statement', async () => {
    const env = await createInProcessBackend(cleanup);
    const { db } = env;
    const kinds = [
      ['ended-old', 'completed', OLD],
      ['failed-old', 'failed', OLD],
      ['ended-recent', 'cancelled', RECENT],
      ['live-old', 'waiting_for_input', OLD],
    ] as const;
    await env.backend.uow.transaction(async (stores) => {
      await stores.workspaces.insert({ id: 'w', name: 'w', createdAt: OLD });
      await stores.tasks.insert(taskRow('t', 'w', OLD));
      for (const [id, state, at] of kinds) {
        await stores.sessions.insert(
          sessionRow(launchConfigFor({ id, taskId: 't', workspaceId: 'w' }), { at, state, updatedAt: at }),
        );
      }
    });
    for (const [id, , at] of kinds) {
      const revision = (n: number) => ({
        session_id: id,
        task_id: 't',
        kind: 'tools_revision',
        payload: JSON.stringify({ revision: n, providers: [], added: [], removed: [] }),
        created_at: at,
      });
      await db('session_history').insert([1, 2, 3].map(revision));
      await db('session_tool_lists').insert({ session_id: id, tool_names: '[]' });
    }
    const rows = async () =>
      (await db('session_history').select('session_id', 'kind')).map(
        (r: { session_id: string; kind: string }) => `${r.session_id}:${r.kind}`,
      );
    const before = await rows();

    let pauses = 0;
    const dropped = await pruneEndedSessionDetails(db, CUTOFF, {
      batch: 2,
      pause: () => {
        pauses += 1;
        return Promise.resolve();
      },
    });

    const gone = ['ended-old', 'failed-old'];
    expect(dropped).toBe(gone.length * 3 + gone.length);
    expect(pauses).toBeGreaterThan(0);
    expect((await rows()).sort()).toEqual(
      before.filter((row) => !gone.some((id) => row === `${id}:tools_revision`)).sort(),
    );
    // The state changes the inserts recorded stay, for every session.
    for (const [id] of kinds) expect(await rows()).toContain(`${id}:state_change`);
    const lists = (await db('session_tool_lists').select('session_id')).map(
      (r: { session_id: string }) => r.session_id,
    );
    expect(lists.sort()).toEqual(['ended-recent', 'live-old']);
    // A second run finds nothing left to drop.
    expect(await pruneEndedSessionDetails(db, CUTOFF, { batch: 2 })).toBe(0);
  });
});
