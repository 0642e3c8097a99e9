// /readyz's database check against real SQLite files: a writable database passes and keeps nothing of
// the probe; one the backend can no longer write to fails.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex from 'knex';
import { createDatabase, DATABASE_FILE_NAME, migrateToLatest } from '../../packages/backend/src/store/database';
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

  test('a database that no longer takes writes fails the probe', async () => {
    const setup = createDatabase(dir);
    await migrateToLatest(setup);
    await setup.destroy();
    const readOnly = knex({
      client: 'better-sqlite3',
      connection: { filename: join(dir, DATABASE_FILE_NAME), options: { readonly: true } },
      useNullAsDefault: true,
    });
    try {
      expect(await isDatabaseWritable(readOnly, 5_000)).toBe(false);
    } finally {
      await readOnly.destroy();
    }
  });
});
