// The bytes SQLite keeps for a data dir's database: the file and whichever journal/WAL files exist.
// In WAL mode the newest pages (and older copies of replaced ones) live in the -wal file until a
// checkpoint, so every file is searched. Read them after the connections closed (SQLite then
// checkpoints and deletes the -wal file) or after a checkpoint. On PostgreSQL (the -pg projects) there
// is no file to read: `databaseHolds` searches every stored row instead.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } from '../../platform/store/database';
import { onPostgres, openTestDatabase } from './test-database';

export function databaseFiles(dataDir: string): string[] {
  return [DATABASE_FILE_NAME, ...DATABASE_SIDE_FILE_SUFFIXES.map((suffix) => `${DATABASE_FILE_NAME}${suffix}`)]
    .map((name) => join(dataDir, name))
    .filter((path) => existsSync(path));
}

/** Whether `text` occurs in the file (as UTF-8, SQLite's text encoding here); a missing file holds nothing. */
export function fileHolds(path: string, text: string): boolean {
  return existsSync(path) && readFileSync(path).includes(Buffer.from(text, 'utf8'));
}

/** Whether any row of any table of the data dir's PostgreSQL database contains `text` (as a row's text form). */
async function postgresRowsHold(dataDir: string, text: string): Promise<boolean> {
  const db = await openTestDatabase(dataDir);
  try {
    const { rows: tables } = await db.raw<{ rows: { name: string }[] }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
    );
    for (const { name } of tables) {
      const { rows } = await db.raw<{ rows: unknown[] }>(
        `SELECT 1 FROM "${name}" AS r WHERE strpos(r::text, ?) > 0 LIMIT 1`,
        [text],
      );
      if (rows.length > 0) return true;
    }
    return false;
  } finally {
    await db.destroy();
  }
}

/**
 * Whether `text` occurs anywhere in what the database stores: the SQLite file's bytes (as UTF-8,
 * SQLite's text encoding here; free pages included), or on PostgreSQL every row of every table.
 */
export async function databaseHolds(dataDir: string, text: string): Promise<boolean> {
  if (onPostgres()) return postgresRowsHold(dataDir, text);
  return databaseFiles(dataDir).some((path) => fileHolds(path, text));
}
