// /readyz's database check against real SQLite files: a writable database passes and keeps nothing of
// the probe; one whose write lock another writer holds fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, migrateToLatest } from '../../packages/backend/src/store/database';
import { isDatabaseWritable } from '../../packages/backend/src/store/database-probe';

describe('the database readiness probe', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kandev-probe-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a writable database passes, and the probe leaves no table behind', async () => {
    const db = createDatabase(dir);
    try {
      await migrateToLatest(db);
      const tables = async () =>
        (await db.raw<{ name: string }[]>("SELECT name FROM sqlite_master WHERE type = 'table'"))
          .map((t) => t.name)
          .sort();
      const before = await tables();
      expect(await isDatabaseWritable(db, 5_000)).toBe(true);
      expect(await tables()).toEqual(before);
    } finally {
      await db.destroy();
    }
  });

  test('a database another writer holds fails the probe within its timeout', async () => {
    const holder = createDatabase(dir);
    const probed = createDatabase(dir);
    try {
      await migrateToLatest(holder);
      let release = () => undefined as void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => undefined as void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      // A transaction that wrote holds SQLite's write lock until it ends.
      const holding = holder.transaction(async (trx) => {
        await trx.raw('CREATE TABLE lock_holder (x INTEGER)');
        locked();
        await released;
      });
      await isLocked;
      expect(await isDatabaseWritable(probed, 200)).toBe(false);
      release();
      await holding;
      expect(await isDatabaseWritable(probed, 5_000)).toBe(true);
    } finally {
      await probed.destroy();
      await holder.destroy();
    }
  });
});
