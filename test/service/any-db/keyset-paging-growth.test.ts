// Keyset paging at size, over a real database while rows are being written: GET /api/tasks pages through
// 10,000 tasks (timestamps that tie) with tasks inserted between and during the page reads, and a
// GET /api/events stream replays 10,000 events and goes on live while events are appended. No row that
// existed when paging began is skipped, none is repeated, and the order holds throughout.
import { createApp, createInProcessBackend, listen, taskRow } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { createEventsHarness } from '../../helpers/events-harness';

const ROWS = 10_000;
const PAGE = 200;
const minute = (n: number) => new Date(Date.UTC(2026, 10, 1, 0, n)).toISOString();

interface TaskPage {
  status: number;
  body: { tasks: { id: string; created_at: string; updated_at: string }[]; next_cursor: string | null };
}

describe('keyset paging with 10,000 rows while rows are inserted', () => {
  const cleanup = useCleanup();

  test.each(['created_desc', 'updated_asc'] as const)(
    'GET /api/tasks (%s) returns every task present at the start once, in order',
    async (sort) => {
      const env = await createInProcessBackend(cleanup);
      const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
      cleanup.defer(() => server.close());
      const api = new BackendApi(`http://127.0.0.1:${server.port}`);
      const workspaceId = await api.workspace('growth');
      // Four tasks per minute: every page boundary may fall inside a tie.
      const tasks = Array.from({ length: ROWS }, (_, n) =>
        taskRow(`t${String(n).padStart(5, '0')}`, workspaceId, minute(Math.floor(n / 4)), {
          updatedAt: minute(Math.floor((ROWS - n) / 4)),
        }),
      );
      await env.backend.uow.transaction((stores) => stores.tasks.insertMany(tasks));

      let inserted = 0;
      // New tasks anywhere in the order, before and after the cursor, with ties on existing times.
      const insertSome = () =>
        env.backend.uow.transaction(async (stores) => {
          for (let k = 0; k < 20; k++) {
            inserted += 1;
            const at = minute((inserted * 37) % (ROWS / 4));
            await stores.tasks.insert(taskRow(`n${String(inserted).padStart(5, '0')}`, workspaceId, at));
          }
        });
      const column = sort === 'created_desc' ? 'created_at' : 'updated_at';
      const seen: { id: string; at: string }[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ workspace_id: workspaceId, sort, limit: String(PAGE) });
        if (cursor !== null) query.set('cursor', cursor);
        const [page]: [TaskPage, void] = await Promise.all([
          api.request('GET', `/api/tasks?${query.toString()}`) as Promise<TaskPage>,
          insertSome(),
        ]);
        expect(page.status).toBe(200);
        seen.push(...page.body.tasks.map((task) => ({ id: task.id, at: task[column] })));
        cursor = page.body.next_cursor;
      } while (cursor !== null);

      const ids = seen.map((row) => row.id);
      expect(new Set(ids).size).toBe(ids.length);
      const present = new Set(ids);
      expect(tasks.filter((task) => !present.has(task.id)).map((task) => task.id)).toEqual([]);
      const direction = sort === 'created_desc' ? -1 : 1;
      for (let i = 1; i < seen.length; i++) {
        const [a, b] = [seen[i - 1], seen[i]];
        const order = a!.at.localeCompare(b!.at) || a!.id.localeCompare(b!.id);
        expect(order * direction).toBeLessThan(0);
      }
      expect(inserted).toBeGreaterThan(ROWS / PAGE);
    },
  );

  test('GET /api/events replays 10,000 events and goes on live while events are appended, each once', async () => {
    const h = await createEventsHarness(cleanup);
    const events = h.backend.uow.read.events;
    const event = (n: number) => ({
      type: 'queue.changed' as const,
      taskId: null,
      sessionId: null,
      data: { n },
      at: minute(n % 60),
    });
    const before = await events.latestId();
    await events.appendMany(Array.from({ length: ROWS }, (_, n) => event(n)));
    const stream = await h.stream('', { lastEventId: String(before), timeoutMs: 60_000 });
    expect(stream.status).toBe(200);
    // Appended while the stream replays (500 events a read) and after it went live.
    const more = 1_000;
    for (let n = 0; n < more; n += 50) {
      await events.appendMany(Array.from({ length: 50 }, (_, k) => event(ROWS + n + k)));
    }
    const total = ROWS + more;
    await stream.until(() => (stream.frames.length >= total ? true : undefined), `${total} events`);
    // A barrier: one more event, the last frame; nothing came twice before it.
    await events.append(event(total));
    await stream.until(() => (stream.frames.length > total ? true : undefined), 'the barrier event');
    const ns = stream.frames.map((frame) => (JSON.parse(frame.data) as { data: { n: number } }).data.n);
    expect(ns).toEqual(Array.from({ length: total + 1 }, (_, n) => n));
    const ids = stream.frames.map((frame) => Number(frame.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
