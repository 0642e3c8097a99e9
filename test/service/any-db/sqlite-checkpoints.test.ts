// Background checkpoints on a real SQLite file (docs/operations.md): with
// them a commit never folds the WAL back into the database file (so it never waits for that fsync);
// the worker thread's own connection does, once something was committed; a worker that cannot run,
// or stops running, leaves SQLite's automatic checkpoint on.
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createDatabase,
  createLogger,
  type Database,
  SQLITE_BUSY_TIMEOUT_MS,
  startBackgroundCheckpoints,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const logger = createLogger('silent');
/** More than SQLite's automatic checkpoint threshold (1000 pages of 4 KB) in one commit. */
const ROWS = 1_200;
const ROW_BYTES = 5_000;
const WRITTEN = ROWS * ROW_BYTES;
/** Long enough that the worker never looks during a test that must not see it. */
const NEVER_MS = 3_600_000;

async function autocheckpoint(db: Database): Promise<number> {
  const rows = await db.raw<{ wal_autocheckpoint: number }[]>('PRAGMA wal_autocheckpoint');
  return Number(rows[0]?.wal_autocheckpoint);
}

describe('SQLite background checkpoints', () => {
  const cleanup = useCleanup();
  let db: Database;
  let file: string;

  beforeEach(async () => {
    const dataDir = tempDir(cleanup);
    file = join(dataDir, 'kandev.sqlite3');
    db = createDatabase(dataDir);
    cleanup.defer(() => db.destroy());
    await db.schema.createTable('filler', (table) => {
      table.integer('id').primary();
      table.text('body').notNullable();
    });
  });

  /** One commit of WRITTEN bytes: past the automatic checkpoint's threshold. */
  async function writeMany(): Promise<void> {
    const rows = Array.from({ length: ROWS }, (_, id) => ({ id, body: 'x'.repeat(ROW_BYTES) }));
    await db.transaction(async (trx) => {
      for (let at = 0; at < rows.length; at += 100) await trx('filler').insert(rows.slice(at, at + 100));
    });
  }

  async function start(options: { intervalMs?: number; driver?: string } = {}) {
    const checkpoints = await startBackgroundCheckpoints(db, {
      ...{ filename: file, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, logger },
      ...options,
    });
    if (checkpoints === undefined) throw new Error('the checkpoint worker did not start');
    cleanup.defer(() => checkpoints.stop());
    return checkpoints;
  }

  test('a commit leaves the database file as it was: the WAL is not folded back inside it', async () => {
    await start({ intervalMs: NEVER_MS });
    expect(await autocheckpoint(db)).toBe(0);
    const before = statSync(file).size;
    await writeMany(); // an automatic checkpoint would have run inside this commit
    expect(statSync(file).size).toBe(before);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(WRITTEN);
  });

  test("the worker's connection folds the WAL back into the database file", async () => {
    await start({ intervalMs: 10 });
    await writeMany();
    await waitUntil(() => statSync(file).size > WRITTEN, { timeoutMs: 10_000, what: 'a checkpoint' });
    expect(await db('filler').count({ n: '*' })).toEqual([{ n: ROWS }]);
  });

  test('a worker that cannot start leaves the automatic checkpoint on', async () => {
    const driver = join(tempDir(cleanup), 'no-such-driver.js');
    const options = { filename: file, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, logger, driver };
    expect(await startBackgroundCheckpoints(db, options)).toBeUndefined();
    expect(await autocheckpoint(db)).toBe(1000);
  });

  test('a worker that fails later turns the automatic checkpoint back on', async () => {
    // better-sqlite3 as the worker loads it, except that a checkpoint throws (and ends the worker).
    // Resolved from the backend, its dependent: test/ alone does not see it.
    const betterSqlite3 = require.resolve('better-sqlite3', { paths: [join(__dirname, '../../../packages/backend')] });
    const driver = join(tempDir(cleanup), 'failing-checkpoint-driver.js');
    writeFileSync(
      driver,
      `const Database = require(${JSON.stringify(betterSqlite3)});
module.exports = class extends Database {
  pragma(source, options) {
    if (source.startsWith('wal_checkpoint')) throw new Error('checkpoint refused');
    return super.pragma(source, options);
  }
};`,
    );
    await start({ intervalMs: 10, driver });
    expect(await autocheckpoint(db)).toBe(0);
    await db('filler').insert({ id: -1, body: 'a commit for the worker to fold back' });
    await waitUntil(async () => (await autocheckpoint(db)) === 1000, { timeoutMs: 10_000, what: 'automatic again' });
    const before = statSync(file).size;
    await writeMany(); // SQLite's own checkpoint runs inside this commit again
    expect(statSync(file).size).toBeGreaterThan(before + WRITTEN);
  });

  test('stop ends the worker and leaves the automatic checkpoint off until the final one', async () => {
    const checkpoints = await start();
    await checkpoints.stop();
    expect(await autocheckpoint(db)).toBe(0);
  });
});
