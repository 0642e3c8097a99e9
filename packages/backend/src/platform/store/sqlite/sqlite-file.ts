import { createRequire } from 'node:module';

// better-sqlite3 opened directly, for the admin commands that work on a database file rather than
// through knex (backup, restore). Only the few calls they make are typed here.

export interface BackupProgress {
  totalPages: number;
  remainingPages: number;
}

export interface SqliteFile {
  pragma(statement: string, options?: { simple?: boolean }): unknown;
  backup(filename: string, options?: { progress?: (progress: BackupProgress) => number }): Promise<BackupProgress>;
  prepare(sql: string): { get(...params: unknown[]): unknown };
  close(): void;
}

interface SqliteOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  /** busy_timeout in ms. */
  timeout?: number;
}

type SqliteConstructor = new (filename: string, options?: SqliteOptions) => SqliteFile;

const BetterSqlite3 = createRequire(__filename)('better-sqlite3') as SqliteConstructor;

/** Opens an existing SQLite file (never creates one). */
export function openSqliteFile(filename: string, options: { readonly?: boolean; busyTimeoutMs: number }): SqliteFile {
  return new BetterSqlite3(filename, {
    readonly: options.readonly ?? false,
    fileMustExist: true,
    timeout: options.busyTimeoutMs,
  });
}

/** SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock this one needed. */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}
