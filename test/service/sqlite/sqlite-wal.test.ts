// SQLite for one box (ADR: SQLite WAL), on a real file: every connection runs in WAL mode with
// synchronous=NORMAL, a busy timeout, foreign keys and secure_delete; a replaced value's bytes are in
// the -wal file until a checkpoint and gone from the database file and the -wal file after it; a
// clean close leaves the database as one file.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  checkpointAndClose,
  checkpointSqlite,
  createDatabase,
  type Database,
  fileHolds,
  migrateToLatest,
  SQLITE_BUSY_TIMEOUT_MS,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { tempDir } from '../../helpers/processes';

const NOW = '2026-12-02T02:00:00.000Z';
const OLD_VALUE = 'old-secret-value-that-was-replaced-0123456789';
const NEW_VALUE = 'new-value-written-over-it-9876543210';

async function pragma(db: Database, name: string): Promise<unknown> {
  const rows = await db.raw<Record<string, unknown>[]>(`PRAGMA ${name}`);
  return Object.values(rows[0] ?? {})[0];
}

describe('SQLite in WAL mode', () => {
  const cleanup = useCleanup();

  function open(dataDir: string): Database {
    const db = createDatabase(dataDir);
    cleanup.defer(() => db.destroy());
    return db;
  }

  test('the connection runs WAL, synchronous=NORMAL, a busy timeout, foreign keys and secure_delete', async () => {
    const db = open(tempDir(cleanup));
    expect({
      journal: await pragma(db, 'journal_mode'),
      synchronous: await pragma(db, 'synchronous'),
      busyTimeout: await pragma(db, 'busy_timeout'),
      foreignKeys: await pragma(db, 'foreign_keys'),
      secureDelete: await pragma(db, 'secure_delete'),
    }).toEqual({
      journal: 'wal',
      synchronous: 1,
      busyTimeout: SQLITE_BUSY_TIMEOUT_MS,
      foreignKeys: 1,
      secureDelete: 1,
    });
  });

  test("a replaced value's bytes leave the database file and the -wal file at the checkpoint", async () => {
    const dataDir = tempDir(cleanup);
    const file = join(dataDir, 'kandev.sqlite3');
    const db = open(dataDir);
    await migrateToLatest(db);
    await db('workspaces').insert({ id: 'w1', name: 'w1', created_at: NOW });
    await db('workspace_credentials').insert({
      workspace_id: 'w1',
      provider: 'gitlab',
      token: OLD_VALUE,
      username: null,
      base_url: null,
      created_at: NOW,
      updated_at: NOW,
    });
    await db('workspace_credentials').where({ workspace_id: 'w1' }).update({ token: NEW_VALUE });

    // Before the checkpoint the -wal file holds the older copy of the page: what the check looks for
    // is really there, in the file it reads.
    expect(fileHolds(`${file}-wal`, OLD_VALUE)).toBe(true);
    expect(fileHolds(`${file}-wal`, NEW_VALUE)).toBe(true);

    expect(await checkpointSqlite(db)).toBe(true);
    expect(statSync(`${file}-wal`).size).toBe(0); // still open: truncated, not deleted
    expect(fileHolds(file, NEW_VALUE)).toBe(true); // the database file was read
    expect(fileHolds(file, OLD_VALUE)).toBe(false);
    expect(fileHolds(`${file}-wal`, OLD_VALUE)).toBe(false);
    expect((await db('workspace_credentials').first('token'))?.token).toBe(NEW_VALUE);
  });

  test('a clean close checkpoints: the data dir keeps the database as one file with every commit', async () => {
    const dataDir = tempDir(cleanup);
    const db = createDatabase(dataDir);
    await migrateToLatest(db);
    await db('workspaces').insert({ id: 'w1', name: 'kept', created_at: NOW });
    expect(existsSync(join(dataDir, 'kandev.sqlite3-wal'))).toBe(true);
    await checkpointAndClose(db);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('kandev.sqlite3'))).toEqual(['kandev.sqlite3']);
    expect(fileHolds(join(dataDir, 'kandev.sqlite3'), 'kept')).toBe(true);
    const again = open(dataDir);
    expect(await again('workspaces').pluck('name')).toEqual(['kept']);
  });
});
