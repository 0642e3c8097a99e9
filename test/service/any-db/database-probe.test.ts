// /readyz's database check against a real database: a writable database passes and keeps nothing of
// the probe. On SQLite, one whose write lock another writer holds fails; on PostgreSQL another
// replica's writer never blocks it, and a read-only database fails it.
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import {
  type Database,
  isDatabaseWritable,
  migrateToLatest,
  onPostgres,
  openTestDatabase,
  testDatabaseName,
} from '@kandev/backend/testing';

async function tableNames(db: Database): Promise<string[]> {
  const rows: { name: string }[] = onPostgres()
    ? (await db.raw<{ rows: { name: string }[] }>('SELECT tablename AS name FROM pg_tables')).rows
    : await db.raw<{ name: string }[]>("SELECT name FROM sqlite_master WHERE type = 'table'");
  return rows.map((t) => t.name).sort();
}

describe('the database readiness probe', () => {
  const cleanup = useCleanup();
  let dir: string;
  beforeEach(() => {
    dir = tempDir(cleanup, 'kandev-probe-');
  });

  async function open(): Promise<Database> {
    const db = await openTestDatabase(dir, cleanup, { empty: true });
    cleanup.defer(() => db.destroy());
    return db;
  }

  test('a writable database passes, and the probe leaves no table behind', async () => {
    const db = await open();
    await migrateToLatest(db);
    const before = await tableNames(db);
    expect(await isDatabaseWritable(db, 5_000)).toBe(true);
    expect(await tableNames(db)).toEqual(before);
  });

  test('while another writer holds its locks: SQLite fails the probe within its timeout, PostgreSQL passes it', async () => {
    const holder = await open();
    const probed = await open();
    await migrateToLatest(holder);
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => undefined as void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    // A transaction that wrote holds SQLite's write lock until it ends; on PostgreSQL it holds row and
    // table locks the probe must not need (another replica writing must not make this one unready).
    const holding = holder.transaction(async (trx) => {
      await trx.raw('CREATE TABLE lock_holder (x INTEGER)');
      await trx.raw(onPostgres() ? 'LOCK TABLE tasks, sessions IN ACCESS EXCLUSIVE MODE' : 'SELECT 1');
      locked();
      await released;
    });
    await isLocked;
    let whileHeld: boolean;
    try {
      whileHeld = await isDatabaseWritable(probed, onPostgres() ? 5_000 : 200);
    } finally {
      release();
      await holding;
    }
    expect(whileHeld).toBe(onPostgres());
    expect(await isDatabaseWritable(probed, 5_000)).toBe(true);
  });

  if (onPostgres()) {
    test('a read-only PostgreSQL database fails the probe', async () => {
      const db = await open();
      await db.raw(`ALTER DATABASE ${testDatabaseName(dir)} SET default_transaction_read_only = on`);
      await db.destroy(); // the setting applies to new connections
      const reopened = await open();
      expect(await isDatabaseWritable(reopened, 5_000)).toBe(false);
    });
  }
});
