// Sent writes (platform/store/driver/sent-writes.ts) on a real database: inside a unit of work on PostgreSQL a write
// whose answer nobody needs is sent, not awaited, and travels with the next statement. The transaction
// still reads its own writes, and a sent write that fails rolls the unit of work back with that write's
// own error. On SQLite the same calls are awaited; the same outcomes hold.
import {
  createUnitOfWork,
  type Database,
  launchConfigFor,
  migrateToLatest,
  type NewEvent,
  onPostgres,
  openTestDatabase,
  sessionRow,
  taskRow,
  TEST_SECRETS,
  type UnitOfWork,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const NOW = '2026-12-03T00:00:00.000Z';
const FOREIGN_KEY = { code: onPostgres() ? '23503' : 'SQLITE_CONSTRAINT_FOREIGNKEY' };
const EVENT = { type: 'task.updated', taskId: null, sessionId: null, data: {}, at: NOW } as unknown as NewEvent;

/** A session row of task `taskId` (which must exist for the insert to hold). */
function session(id: string, taskId: string) {
  return sessionRow(launchConfigFor({ id, taskId, workspaceId: 'w1' }), { at: NOW, state: 'created' });
}

async function count(db: Database, table: string): Promise<number> {
  const [row] = await db(table).count<{ n: string | number }[]>({ n: '*' });
  return Number(row?.n);
}

describe('sent writes', () => {
  const cleanup = useCleanup();
  let db: Database;
  let uow: UnitOfWork;

  beforeEach(async () => {
    db = await openTestDatabase(tempDir(cleanup, 'kandev-sent-writes-'), cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    await migrateToLatest(db);
    uow = createUnitOfWork(db, TEST_SECRETS);
    await uow.read.workspaces.insert({ id: 'w1', name: 'w1', createdAt: NOW });
    await uow.read.tasks.insert(taskRow('t1', 'w1', NOW));
  });

  test('a unit of work reads its own sent writes, and they commit with it', async () => {
    const seen = await uow.transaction(async (stores) => {
      await stores.sessions.insert(session('s1', 't1'));
      await stores.events.append(EVENT);
      return { session: await stores.sessions.findById('s1'), events: await stores.events.latestId() };
    });
    expect(seen.session?.state).toBe('created');
    expect(seen.events).toBe(2); // the session's state_changed, then EVENT
    expect(await uow.read.sessions.findById('s1')).toMatchObject({ id: 's1', state: 'created' });
    expect(await count(db, 'events')).toBe(2);
  });

  test('a sent write that fails rolls its unit of work back and fails it with its own error', async () => {
    const failure = await uow
      .transaction(async (stores) => {
        await stores.events.append(EVENT);
        await stores.sessions.insert(session('s1', 'missing-task')); // a foreign key the database refuses
        await stores.events.append(EVENT);
        return stores.events.latestId();
      })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject(FOREIGN_KEY);
    expect(await count(db, 'events')).toBe(0);
    expect(await count(db, 'sessions')).toBe(0);
    // The pool's connections are clean: the next unit of work commits.
    await uow.transaction((stores) => stores.events.append(EVENT));
    expect(await count(db, 'events')).toBe(1);
  });

  if (!onPostgres()) return;

  test('on PostgreSQL a sent write does not wait for its answer', async () => {
    // Another transaction holds session s1's key uncommitted: an insert of s1 waits for it to end.
    const holder = await db.transaction();
    cleanup.defer(() => (holder.isCompleted() ? undefined : holder.rollback()));
    await holder('sessions').insert({ ...sessionColumns('s1'), task_id: 't1' });
    let sent = false;
    const work = uow.transaction(async (stores) => {
      await stores.sessions.insert(session('s1', 't1'));
      sent = true; // before the insert was answered: it still waits on the holder
    });
    await waitUntil(
      async () => {
        const { rows } = await db.raw<{ rows: { waiting: number }[] }>(
          "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'transactionid' AND NOT granted",
        );
        return rows[0]?.waiting === 1;
      },
      { timeoutMs: 10_000, what: 'the sent insert to wait on the holder' },
    );
    expect(sent).toBe(true);
    await holder.rollback();
    await work;
    expect(await uow.read.sessions.findById('s1')).toMatchObject({ id: 's1', state: 'created' });
  });
});

/** The columns of a bare session row (the holder's insert, outside the stores). */
function sessionColumns(id: string) {
  return {
    id,
    state: 'created',
    executor: 'local',
    revision: 1,
    launch_config: '{}',
    applied_revision: 0,
    refresh_attempts: 0,
    mcp_token_hash: 'ab'.repeat(32),
    surface: 'kanban_task',
    created_at: NOW,
    updated_at: NOW,
  };
}
