import type { Knex } from 'knex';
import { MIGRATION_SOURCE } from './migration-source';
import { createSqliteDatabase } from './sqlite-database';

export { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } from './sqlite-database';

export type Database = Knex;

/** The backend's database: the embedded SQLite file in `dataDir`. */
export function createDatabase(dataDir: string): Database {
  return createSqliteDatabase(dataDir);
}

/** Runs every pending migration (compiled TS modules, so this works from dist/). */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: MIGRATION_SOURCE })) as [number, string[]];
  return applied;
}
