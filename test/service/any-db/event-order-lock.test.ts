// The event-order lock (platform/store/event-order-lock.ts) on a real database. On PostgreSQL every unit of work
// holds it from its BEGIN, taken in the same round trip (platform/store/driver/store-transaction.ts), so event-appending
// writers commit one after another; other transactions (leases, the readiness probe) do not take it.
// On SQLite there is no such lock and no statement for it.
import {
  createPostgresDatabase,
  createUnitOfWork,
  type Database,
  EVENT_ORDER_LOCK,
  migrateToLatest,
  type NewEvent,
  onPostgres,
  openTestDatabase,
  TEST_SECRETS,
  testDatabaseUrl,
  underEventOrder,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

/** Whether the connection running `db`'s next statement holds the event-order lock. */
async function holdsLock(db: Database): Promise<boolean> {
  const { rows } = await db.raw<{ rows: { held: boolean }[] }>(
    `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = ? AND granted
       AND pid = pg_backend_pid()) AS held`,
    [EVENT_ORDER_LOCK],
  );
  return rows[0]?.held === true;
}

/** Every statement `db` sends while `work` runs (knex's query events), in order. */
async function statementsOf(db: Database, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const record = (query: { sql: string }) => sent.push(query.sql);
  db.on('query', record);
  try {
    await work();
  } finally {
    db.off('query', record);
  }
  return sent;
}

const EVENT = {
  type: 'task.updated',
  taskId: null,
  sessionId: null,
  data: {},
  at: '2026-12-03T00:00:00.000Z',
} as unknown as NewEvent;

describe('the event-order lock', () => {
  const cleanup = useCleanup();
  let db: Database;
  let dir: string;

  beforeEach(async () => {
    dir = tempDir(cleanup, 'kandev-event-lock-');
    db = await openTestDatabase(dir, cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
  });

  test('a unit of work that appends events sends BEGIN, its statements and COMMIT, nothing else', async () => {
    const uow = createUnitOfWork(db, TEST_SECRETS);
    const sent = await statementsOf(db, () =>
      uow.transaction(async (stores) => {
        await stores.events.append(EVENT);
        await stores.events.append(EVENT);
      }),
    );
    const lockingBegin = `BEGIN; SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK});`;
    expect(sent).toEqual([
      onPostgres() ? lockingBegin : 'BEGIN;',
      expect.stringMatching(/^insert into ["`]events["`]/),
      expect.stringMatching(/^insert into ["`]events["`]/),
      'COMMIT;',
    ]);
  });

  if (!onPostgres()) return;

  test('on PostgreSQL a unit of work holds it from BEGIN; a plain transaction takes it only through underEventOrder', async () => {
    const uow = createUnitOfWork(db, TEST_SECRETS);
    await uow.transaction(async () => {
      const holders = await db.raw<{ rows: { holders: number }[] }>(
        "SELECT count(*)::int AS holders FROM pg_locks WHERE locktype = 'advisory' AND objid = ? AND granted" +
          // this test's database only: other test files run units of work in theirs on the same server
          ' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())',
        [EVENT_ORDER_LOCK],
      );
      expect(holders.rows[0]?.holders).toBe(1); // seen from another connection
    });
    let taken: string[] = [];
    await db.transaction(async (trx) => {
      expect(await holdsLock(trx)).toBe(false);
      taken = await statementsOf(db, () => underEventOrder(trx, () => Promise.resolve()));
      expect(await holdsLock(trx)).toBe(true);
    });
    expect(taken).toEqual([expect.stringMatching(/pg_advisory_xact_lock/)]);
  });

  test('on PostgreSQL a second unit of work waits for the first to commit', async () => {
    const uow = createUnitOfWork(db, TEST_SECRETS);
    const order: string[] = [];
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => undefined as void;
    const firstEntered = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const first = uow.transaction(async (stores) => {
      await stores.events.latestId(); // answered once its BEGIN took the lock (the BEGIN is sent, not awaited)
      entered();
      await released;
      order.push('first commits');
    });
    await firstEntered;
    // Its BEGIN is sent, not awaited: its first statement is what waits for the lock.
    const second = uow.transaction(async (stores) => {
      await stores.events.latestId();
      order.push('second runs');
    });
    await waitUntil(
      async () => {
        const waiting = await db.raw<{ rows: { waiting: number }[] }>(
          "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND objid = ? AND NOT granted",
          [EVENT_ORDER_LOCK],
        );
        return waiting.rows[0]?.waiting === 1;
      },
      { timeoutMs: 10_000, what: 'the second unit of work to wait on the lock' },
    );
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first commits', 'second runs']);
  });

  test('on PostgreSQL a lock that fails in BEGIN fails the unit of work and leaves its connection clean', async () => {
    const holder = createUnitOfWork(db, TEST_SECRETS);
    // A second pool of one connection whose lock waits give up at once.
    const url = await testDatabaseUrl(dir);
    const single = createPostgresDatabase(url as string, { min: 0, max: 1 });
    cleanup.defer(() => single.destroy());
    await single.raw("SET lock_timeout = '20ms'");
    const impatient = createUnitOfWork(single, TEST_SECRETS);
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => undefined as void;
    const holding = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const held = holder.transaction(async (stores) => {
      await stores.events.latestId(); // answered once its BEGIN took the lock
      entered();
      await released;
    });
    await holding;
    const failure = await impatient
      .transaction((stores) => stores.events.append(EVENT))
      .catch((error: unknown) => error);
    release();
    await held;
    expect((failure as { code?: unknown }).code).toBe('55P03'); // lock_not_available
    // The same (only) connection is usable: not left inside the aborted transaction.
    const { rows } = await single.raw<{ rows: { status: string }[] }>("SELECT 'ok' AS status");
    expect(rows).toEqual([{ status: 'ok' }]);
    expect(await impatient.transaction((stores) => stores.events.latestId())).toBeGreaterThanOrEqual(0);
    const events = await db('events').count<{ n: string }[]>({ n: '*' });
    expect(Number(events[0]?.n)).toBe(0); // the failed unit of work wrote nothing
  });
});
