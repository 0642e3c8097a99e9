import { join, resolve } from 'node:path';
import knex, { type Knex } from 'knex';
import { ensurePrivateDir, ensurePrivateFile } from '../private-files';

export const DATABASE_FILE_NAME = 'kandev.sqlite3';

/** The files SQLite keeps next to the database (rollback journal, WAL and its shared-memory index). */
export const DATABASE_SIDE_FILE_SUFFIXES = ['-journal', '-wal', '-shm'] as const;

interface PragmaConnection {
  pragma(statement: string): unknown;
}

function isPragmaConnection(value: unknown): value is PragmaConnection {
  return typeof value === 'object' && value !== null && typeof (value as PragmaConnection).pragma === 'function';
}

/**
 * Per connection: SQLite enforces foreign keys only when asked; secure_delete zeroes the bytes a row
 * update or delete frees, so a replaced value (a plaintext secret sealed at start, a rotated token)
 * does not linger in free space inside the file (better-sqlite3's build defaults to it; set here so that
 * does not depend on the build).
 */
function prepareConnection(connection: unknown, done: (error: Error | null, connection: unknown) => void): void {
  if (!isPragmaConnection(connection)) {
    done(new Error('expected a better-sqlite3 connection'), connection);
    return;
  }
  try {
    connection.pragma('foreign_keys = ON');
    connection.pragma('secure_delete = ON');
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
 * racing SQLite each time it creates a journal. Side files left looser by an older version are
 * tightened at start (composition/data-dir.ts).
 */
export function createSqliteDatabase(dataDir: string): Knex {
  const dir = resolve(dataDir);
  ensurePrivateDir(dir);
  const filename = join(dir, DATABASE_FILE_NAME);
  ensurePrivateFile(filename);
  return knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: { min: 1, max: 1, afterCreate: prepareConnection },
  });
}
