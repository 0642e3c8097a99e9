import { join, resolve } from 'node:path';
import knex, { type Knex } from 'knex';
import type { Logger } from '../../logger/logger';
import { ensurePrivateDir, ensurePrivateFile } from '../../files/private-files';
import { type BackgroundCheckpoints, startBackgroundCheckpoints } from './sqlite-checkpoints';
import { cacheStatements } from './sqlite-statement-cache';

export const DATABASE_FILE_NAME = 'kandev.sqlite3';

/** The files SQLite keeps next to the database (rollback journal, WAL and its shared-memory index). */
export const DATABASE_SIDE_FILE_SUFFIXES = ['-journal', '-wal', '-shm'] as const;

/**
 * How long a statement waits for a lock another connection holds before failing with SQLITE_BUSY. The
 * backend is the only writer; the other connections are short (`npm run admin -- backup`, a restore
 * check): a few seconds covers them without hanging a request on a stuck one.
 */
export const SQLITE_BUSY_TIMEOUT_MS = 5_000;

interface PragmaConnection {
  pragma(statement: string, options?: { simple?: boolean }): unknown;
  prepare(sql: string): unknown;
}

/**
 * The knex instances this module opened, with their file: the checkpoint helpers are no-ops on any
 * other database.
 */
const sqliteDatabases = new WeakMap<Knex, string>();

function isPragmaConnection(value: unknown): value is PragmaConnection {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as PragmaConnection).pragma === 'function' &&
    typeof (value as PragmaConnection).prepare === 'function'
  );
}

/**
 * Per connection (docs/operations.md#one-box-on-sqlite):
 * - WAL journal: readers (an online backup, the readiness probe's neighbours) do not block the writer
 *   and a commit appends to one file instead of writing the pages twice. Persistent in the file.
 * - synchronous=NORMAL: in WAL mode a commit is not fsynced, only checkpoints are; a process crash loses
 *   nothing, a power loss or OS crash may lose the last commits (never corrupts the file).
 * - busy_timeout: wait for a lock instead of failing at once (SQLITE_BUSY_TIMEOUT_MS).
 * - foreign keys: SQLite enforces them only when asked.
 * - compiled statements are kept per SQL text (platform/store/sqlite/sqlite-statement-cache.ts).
 * - secure_delete: zeroes the bytes a row update or delete frees, so a replaced value (a plaintext
 *   secret sealed at start, a rotated token) does not linger in free space inside the page. In WAL mode
 *   the older copies of a page stay in the -wal file until it is reset: `checkpointSqlite` truncates it
 *   (better-sqlite3's build defaults secure_delete on; set here so that does not depend on the build).
 */
function prepareConnection(connection: unknown, done: (error: Error | null, connection: unknown) => void): void {
  if (!isPragmaConnection(connection)) {
    done(new Error('expected a better-sqlite3 connection'), connection);
    return;
  }
  try {
    connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    const mode = connection.pragma('journal_mode = WAL', { simple: true });
    if (mode !== 'wal') throw new Error(`SQLite refused the WAL journal (journal_mode is ${String(mode)})`);
    connection.pragma('synchronous = NORMAL');
    connection.pragma('foreign_keys = ON');
    connection.pragma('secure_delete = ON');
    cacheStatements(connection);
    done(null, connection);
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)), connection);
  }
}

/**
 * A knex instance on `<dataDir>/kandev.sqlite3`; the directory is created 0700 when missing.
 *
 * The database file is created (or tightened) 0600 before SQLite opens it. That is what makes the
 * journal, WAL and shm files 0600 too: SQLite's unix VFS creates each of them with the database file's
 * own permission bits and fchmods it to them, whatever the umask. This keeps the process umask alone
 * (it is process-wide and would also apply to agentctl and every agent we spawn) and needs no chmod
 * racing SQLite each time it creates a -wal or -shm file. Side files left looser by an older version
 * are tightened at start (composition/data-dir.ts).
 */
export function createSqliteDatabase(dataDir: string): Knex {
  const dir = resolve(dataDir);
  ensurePrivateDir(dir);
  const filename = join(dir, DATABASE_FILE_NAME);
  ensurePrivateFile(filename);
  const db = knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: { min: 1, max: 1, afterCreate: prepareConnection },
  });
  sqliteDatabases.set(db, filename);
  return db;
}

/**
 * The backend's own pool checkpoints from a worker thread, never inside a commit
 * (platform/store/sqlite/sqlite-checkpoints.ts). Undefined on a database that is not SQLite.
 */
export async function checkpointInBackground(db: Knex, logger: Logger): Promise<BackgroundCheckpoints | undefined> {
  const filename = sqliteDatabases.get(db);
  if (filename === undefined) return undefined;
  return startBackgroundCheckpoints(db, { filename, busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS, logger });
}

/**
 * Copies every WAL frame into the database file and truncates the -wal file to zero bytes, so older
 * copies of replaced pages (a secret sealed at start) are gone from both. True when the checkpoint
 * completed; false when another connection's read kept part of the WAL (the next one finishes it).
 * A no-op on a database that is not SQLite.
 */
export async function checkpointSqlite(db: Knex): Promise<boolean> {
  if (!sqliteDatabases.has(db)) return true;
  const rows = await db.raw<{ busy: number }[]>('PRAGMA wal_checkpoint(TRUNCATE)');
  return rows[0]?.busy === 0;
}

/**
 * Closes the database on shutdown: a final checkpoint (so the data dir is one self-contained file a
 * copy or a restore can take as is), then the pool. SQLite also checkpoints when its last connection
 * closes; doing it first keeps that true when another process still has the file open.
 */
export async function checkpointAndClose(db: Knex): Promise<void> {
  try {
    await checkpointSqlite(db);
  } finally {
    await db.destroy();
  }
}
