import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PRIVATE_FILE_MODE } from '../../files/private-files';
import { openSqliteFile, type SqliteFile } from './sqlite-file';
import { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES, SQLITE_BUSY_TIMEOUT_MS } from './sqlite-database';

// `npm run admin -- backup <file>` (admin.ts): an online copy of the backend's SQLite database through
// SQLite's backup API, taken while the backend runs and writes (docs/operations.md).

/** A refusal or a failure the operator can act on; nothing was left behind. */
export class SqliteAdminError extends Error {
  override readonly name = 'SqliteAdminError';
}

export interface BackupResult {
  source: string;
  target: string;
  pages: number;
  bytes: number;
}

/**
 * Every page in one backup step: the copy runs in one read transaction, so it is one consistent
 * snapshot and the backend's commits meanwhile neither wait for it (WAL) nor restart it. Steps of a few
 * pages would restart from the first page after each commit another connection makes, and might
 * never finish under a steady write load.
 */
const ALL_PAGES = 0x7fffffff;

export function databaseFile(dataDir: string): string {
  return join(resolve(dataDir), DATABASE_FILE_NAME);
}

export function removeSideFiles(filename: string): void {
  for (const suffix of DATABASE_SIDE_FILE_SUFFIXES) {
    try {
      unlinkSync(`${filename}${suffix}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

function removeQuietly(filename: string): void {
  try {
    unlinkSync(filename);
  } catch {
    // already gone
  }
  try {
    removeSideFiles(filename);
  } catch {
    // best effort: the error being reported matters more
  }
}

/** Creates `path` empty and 0600 (whatever the umask); fails when it exists. */
export function createPrivateEmptyFile(path: string): void {
  const fd = openSync(path, 'wx', PRIVATE_FILE_MODE);
  closeSync(fd);
}

export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** `quick_check` passes and the file has the backend's schema (knex's migration table). */
export function checkKandevDatabase(file: SqliteFile, label: string): void {
  const check = file.pragma('quick_check', { simple: true });
  if (check !== 'ok') throw new SqliteAdminError(`${label} fails SQLite's quick_check: ${String(check)}`);
  const migrations = file.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'knex_migrations'").get() as {
    n: number;
  };
  if (migrations.n !== 1) throw new SqliteAdminError(`${label} is an SQLite file but not a kandev database`);
}

/**
 * The finished copy: a self-contained file (rollback journal, so no -wal/-shm beside it), checked,
 * on disk.
 */
function finishCopy(staged: string): void {
  const copy = openSqliteFile(staged, { busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS });
  try {
    copy.pragma('journal_mode = DELETE');
    checkKandevDatabase(copy, 'the copy');
  } finally {
    copy.close();
  }
  fsyncFile(staged);
}

/** Moves the staged copy to `target`: over an existing file only with `force`, atomically either way. */
function publish(staged: string, target: string, force: boolean): void {
  if (force) {
    renameSync(staged, target);
    return;
  }
  try {
    linkSync(staged, target); // fails when target appeared meanwhile: never replaced without --force
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new SqliteAdminError(`${target} exists: pass --force to replace it`);
    }
    throw error;
  }
  unlinkSync(staged);
}

/**
 * Copies the data dir's database to `target` (0600) while the backend may be using it. The copy is
 * written beside the target and moved into place only once complete and checked, so a failure leaves
 * no partial backup and never touches an existing one.
 */
export async function backupSqlite(options: {
  dataDir: string;
  target: string;
  force: boolean;
}): Promise<BackupResult> {
  const source = databaseFile(options.dataDir);
  const target = resolve(options.target);
  if (!existsSync(source)) {
    throw new SqliteAdminError(`no database at ${source} (is KANDEV_DATA_DIR the backend's data dir?)`);
  }
  if (target === source || target.startsWith(`${source}-`)) {
    throw new SqliteAdminError(`${target} is the live database or one of its files: choose another target`);
  }
  if (!existsSync(dirname(target))) throw new SqliteAdminError(`the directory ${dirname(target)} does not exist`);
  if (existsSync(target) && !options.force) throw new SqliteAdminError(`${target} exists: pass --force to replace it`);
  if (existsSync(target) && !statSync(target).isFile()) throw new SqliteAdminError(`${target} is not a file`);

  const staged = `${target}.partial-${process.pid}`;
  createPrivateEmptyFile(staged);
  try {
    const live = openSqliteFile(source, { busyTimeoutMs: SQLITE_BUSY_TIMEOUT_MS });
    let pages: number;
    try {
      pages = (await live.backup(staged, { progress: () => ALL_PAGES })).totalPages;
    } finally {
      live.close();
    }
    finishCopy(staged);
    const bytes = statSync(staged).size;
    publish(staged, target, options.force);
    return { source, target, pages, bytes };
  } catch (error) {
    removeQuietly(staged);
    throw error;
  }
}
