// The bytes SQLite keeps for a data dir's database: the file and whichever journal/WAL files exist.
// In WAL mode the newest pages (and older copies of replaced ones) live in the -wal file until a
// checkpoint, so every file is searched. Read them after the connections closed (SQLite then
// checkpoints and deletes the -wal file) or after a checkpoint.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } from '../../packages/backend/src/store/database';

export function databaseFiles(dataDir: string): string[] {
  return [DATABASE_FILE_NAME, ...DATABASE_SIDE_FILE_SUFFIXES.map((suffix) => `${DATABASE_FILE_NAME}${suffix}`)]
    .map((name) => join(dataDir, name))
    .filter((path) => existsSync(path));
}

/** Whether `text` occurs in the file (as UTF-8, SQLite's text encoding here); a missing file holds nothing. */
export function fileHolds(path: string, text: string): boolean {
  return existsSync(path) && readFileSync(path).includes(Buffer.from(text, 'utf8'));
}

/** Whether `text` occurs in any of the database's files. */
export function databaseHolds(dataDir: string, text: string): boolean {
  return databaseFiles(dataDir).some((path) => fileHolds(path, text));
}
