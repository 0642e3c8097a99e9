// The bytes SQLite keeps for a data dir's database: the file and whichever journal/WAL files exist.
// Read them only after every connection to it is closed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } from '../../packages/backend/src/store/database';

export function databaseBytes(dataDir: string): Buffer {
  const paths = [DATABASE_FILE_NAME, ...DATABASE_SIDE_FILE_SUFFIXES.map((suffix) => `${DATABASE_FILE_NAME}${suffix}`)]
    .map((name) => join(dataDir, name))
    .filter((path) => existsSync(path));
  return Buffer.concat(paths.map((path) => readFileSync(path)));
}

/** Whether `text` occurs anywhere in the database bytes (as UTF-8, SQLite's text encoding here). */
export function databaseHolds(dataDir: string, text: string): boolean {
  return databaseBytes(dataDir).includes(Buffer.from(text, 'utf8'));
}
