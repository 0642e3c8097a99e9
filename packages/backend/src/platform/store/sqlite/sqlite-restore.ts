import { chmodSync, copyFileSync, existsSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../../files/private-files';
import {
  checkKandevDatabase,
  createPrivateEmptyFile,
  databaseFile,
  fsyncFile,
  removeSideFiles,
  SqliteAdminError,
} from './sqlite-backup';
import { isSqliteBusy, openSqliteFile } from './sqlite-file';

// `npm run admin -- restore <backup>` (admin.ts): puts a backup in place of the data dir's database
// while no backend uses it. The replaced database is kept beside it (0600), not deleted.

export interface RestoreResult {
  database: string;
  /** Where the database that was replaced now is; absent when the data dir had none. */
  replacedKeptAt?: string;
}

function checkBackup(backup: string): void {
  if (!existsSync(backup) || !statSync(backup).isFile()) throw new SqliteAdminError(`no backup file at ${backup}`);
  let file;
  try {
    file = openSqliteFile(backup, { readonly: true, busyTimeoutMs: 0 });
  } catch (error) {
    throw new SqliteAdminError(`${backup} cannot be opened as SQLite: ${(error as Error).message}`);
  }
  try {
    checkKandevDatabase(file, backup);
  } catch (error) {
    if (error instanceof SqliteAdminError) throw error;
    throw new SqliteAdminError(`${backup} cannot be read as SQLite: ${(error as Error).message}`);
  } finally {
    file.close();
  }
}

/**
 * Fails when any other connection has the live database open. Leaving WAL mode needs every other
 * connection closed (a running backend keeps one open all the time), and it checkpoints the WAL into
 * the file first, so the database kept aside is whole. The backend turns WAL back on when it starts.
 */
function claimLiveDatabase(database: string): void {
  const live = openSqliteFile(database, { busyTimeoutMs: 0 });
  try {
    live.pragma('journal_mode = DELETE');
  } catch (error) {
    if (!isSqliteBusy(error)) throw error;
    throw new SqliteAdminError(`${database} is in use (a backend is running on this data dir?): stop it, then restore`);
  } finally {
    live.close();
  }
}

/** Replaces `<dataDir>/kandev.sqlite3` with a copy of `backup`; the backend must be stopped. */
export function restoreSqlite(options: { dataDir: string; backup: string; now: Date }): RestoreResult {
  const backup = resolve(options.backup);
  const database = databaseFile(options.dataDir);
  checkBackup(backup);
  ensurePrivateDir(resolve(options.dataDir));
  const hadDatabase = existsSync(database);
  if (hadDatabase) claimLiveDatabase(database);

  const staged = `${database}.restoring`;
  if (existsSync(staged)) unlinkSync(staged); // a restore that died before its rename
  createPrivateEmptyFile(staged);
  try {
    copyFileSync(backup, staged);
    chmodSync(staged, PRIVATE_FILE_MODE); // copyFile gives the copy the backup's own mode
    fsyncFile(staged);
  } catch (error) {
    unlinkSync(staged);
    throw error;
  }
  // A -wal left beside the database would be replayed into the restored file: none may survive.
  removeSideFiles(database);
  const result: RestoreResult = { database };
  if (hadDatabase) {
    result.replacedKeptAt = `${database}.replaced-${options.now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(database, result.replacedKeptAt);
  }
  renameSync(staged, database);
  return result;
}
