// Retention against resuming streams, over the real GET /api/events and a real database: for any log
// (events of any age, two tasks), any retention, any pruning batch size, any Last-Event-ID and filter,
// with pruning running while the stream replays, the stream either sends every event the client is
// owed (after its id, matching its filter, up to the head) in order and once each, or sends `reset`;
// and it resets only when pruning did drop events past the client's id (or the id is unknown).
import fc from 'fast-check';
import { useCleanup } from '../../helpers/cleanup';
import { createEventsHarness } from '../../helpers/events-harness';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const HOUR = 3_600_000;
const MAX_AGE_MS = 5 * HOUR;

describe('event log pruning while clients resume (property)', () => {
  const cleanup = useCleanup();

  test('a resuming stream gets every event it is owed, or reset; reset only when one was pruned', async () => {
    const h = await createEventsHarness(cleanup);
    const { db } = h.env;
    const events = h.backend.uow.read.events;
    const workspaceId = await h.api.workspace('prune');
    const tasks = [
      (await h.api.task(workspaceId, { title: 'one' })).id,
      (await h.api.task(workspaceId, { title: 'two' })).id,
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ hours: fc.nat(40), task: fc.nat(1) }), { minLength: 1, maxLength: 40 }),
        fc.nat(42),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.nat(60),
        fc.nat(20),
        fc.boolean(),
        fc.constantFrom(undefined, 0, 1),
        async (specs, offset, maxRows, batch, delay, gap, pruneFirst, task) => {
          await db('events').delete();
          await events.appendMany(
            specs.map((spec, n) => ({
              type: 'queue.changed' as const,
              taskId: tasks[spec.task] ?? null,
              sessionId: null,
              data: { n },
              at: new Date(NOW.getTime() - spec.hours * HOUR).toISOString(),
            })),
          );
          const log = await events.after(0, {}, 1000);
          // Ids go on from earlier runs: the id before this run's first.
          const base = (log[0]?.id ?? 1) - 1;
          const head = log[log.length - 1]?.id ?? base;
          // Any id from before the first to past the head (another log's).
          const resumeAfter = base + (offset % (specs.length + 3));

          // Pruning runs beside the stream, a few rows a statement with some event-loop turns between
          // statements, started some turns before the stream is requested or after its headers arrived
          // (as it starts reading the log): it lands anywhere among the stream's reads.
          const turns = async (count: number) => {
            for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
          };
          const prune = async () => {
            await turns(delay);
            await events.prune({ maxAgeMs: MAX_AGE_MS, maxRows }, NOW, { batch, pause: () => turns(gap) });
          };
          const early = pruneFirst ? prune() : undefined;
          const stream = await h.stream(task === undefined ? '' : `?task_id=${tasks[task]}`, {
            lastEventId: String(resumeAfter),
          });
          const pruning = early ?? prune();
          expect(stream.status).toBe(200);
          await stream.until(() => (stream.heads.length > 0 ? true : undefined), 'the head frame');
          await pruning;
          stream.close();
          const oldest = await events.oldestId();

          const frames = stream.frames.map((frame) => ({ id: Number(frame.id), event: frame.event }));
          const reset = frames.some((frame) => frame.event === 'reset');
          const received = frames.filter((frame) => frame.event !== 'reset').map((frame) => frame.id);
          // In order, once each, whatever happened.
          expect(received).toEqual([...new Set(received)].sort((a, b) => a - b));
          const owed = log.filter((e) => e.id > resumeAfter && (task === undefined || e.taskId === tasks[task]));
          if (!reset) expect(received).toEqual(owed.map((e) => e.id));
          // Pruning drops a prefix: past the client's id only when the oldest left is beyond its next id.
          const prunedPast = oldest !== null && resumeAfter < oldest - 1;
          if (!prunedPast && resumeAfter <= head) expect(reset).toBe(false);
          // Nothing after the reset but what the stream sends live (none here): the head frame follows.
          expect(stream.order[stream.order.length - 1]).toBe('stream.head');
        },
      ),
      { numRuns: 100 },
    );
  });
});
