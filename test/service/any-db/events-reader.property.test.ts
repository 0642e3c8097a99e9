// The event log's reader over real SQLite, against a model: for any appended events, any id to resume
// after, any filter and any page size, reading page by page returns exactly the later matching events,
// in append order, each once; retention drops exactly a prefix of the log.
import fc from 'fast-check';
import {
  type EventFilter,
  EventStore,
  migrateToLatest,
  openTestDatabase,
  type StoredEvent,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const AT = '2026-12-01T10:00:00.000Z';
const taskArb = fc.constantFrom('t1', 't2', null);
const sessionArb = fc.constantFrom('s1', 's2', null);
const eventArb = fc.record({ taskId: taskArb, sessionId: sessionArb, n: fc.nat(1000) });
const filterArb: fc.Arbitrary<EventFilter> = fc.record(
  { taskId: fc.constantFrom('t1', 't2'), sessionId: fc.constantFrom('s1', 's2') },
  { requiredKeys: [] },
);

function matches(event: StoredEvent, filter: EventFilter): boolean {
  return (
    (filter.taskId === undefined || event.taskId === filter.taskId) &&
    (filter.sessionId === undefined || event.sessionId === filter.sessionId)
  );
}

describe('event log reader (real SQLite, property)', () => {
  const cleanup = useCleanup();

  test('replay after any id returns exactly the later matching events, in order, page by page', async () => {
    const db = await openTestDatabase(tempDir(cleanup), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    const store = new EventStore(db);
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { maxLength: 30 }),
        fc.nat(40),
        filterArb,
        fc.integer({ min: 1, max: 7 }),
        async (appended, offset, filter, pageSize) => {
          await db('events').delete();
          for (const event of appended) {
            await store.append({ type: 'queue.changed', ...event, data: { depth: event.n }, at: AT });
          }
          const all = await store.after(0, {}, 1000);
          expect(all.map((e) => e.data.depth)).toEqual(appended.map((e) => e.n));
          // Resume anywhere: before the first id, between, at or past the last.
          const first = all[0]?.id ?? 1;
          const afterId = Math.max(0, first - 1 + offset - 5);
          const expected = all.filter((e) => e.id > afterId && matches(e, filter));
          const read: StoredEvent[] = [];
          let cursor = afterId;
          for (;;) {
            const page = await store.after(cursor, filter, pageSize);
            read.push(...page);
            if (page.length < pageSize) break;
            cursor = page[page.length - 1]?.id ?? cursor;
          }
          expect(read).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('retention drops the oldest events up to the first one younger than max age and within max rows', async () => {
    const db = await openTestDatabase(tempDir(cleanup), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    const store = new EventStore(db);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 10 }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 25 }),
        async (ageHours, maxRows) => {
          await db('events').delete();
          const now = new Date(AT);
          for (const hours of ageHours) {
            const at = new Date(now.getTime() - hours * 3_600_000).toISOString();
            await store.append({ type: 'queue.changed', taskId: null, sessionId: null, data: { hours }, at });
          }
          const before = await store.after(0, {}, 1000);
          await store.prune({ maxAgeMs: 5 * 3_600_000, maxRows }, now);
          // A prefix goes: up to the first event both young enough and among the newest maxRows, and
          // never the newest one.
          const firstKept = before.findIndex(
            (e, i) => i === before.length - 1 || (i >= before.length - maxRows && (e.data.hours as number) <= 5),
          );
          const kept = await store.after(0, {}, 1000);
          expect(kept).toEqual(before.slice(Math.max(0, firstKept)));
          expect(await store.oldestId()).toBe(kept[0]?.id ?? null);
        },
      ),
      { numRuns: 40 },
    );
  });
});
