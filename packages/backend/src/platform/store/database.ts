import type { Knex } from 'knex';
import { MIGRATION_SOURCE } from './migration-source';
import { createPostgresDatabase, redactDatabaseUrl } from './driver/postgres-database';
import { createSqliteDatabase } from './sqlite/sqlite-database';
import type { Sql } from './sql';

export { DATABASE_FILE_NAME, DATABASE_SIDE_FILE_SUFFIXES } from './sqlite/sqlite-database';

export type Database = Knex;

export type DatabaseDialect = 'sqlite' | 'postgres';

/**
 * The backend's database: PostgreSQL when `databaseUrl` (KANDEV_DATABASE_URL, validated by config.ts)
 * is set, else the embedded SQLite file in `dataDir`.
 */
export function createDatabase(dataDir: string, databaseUrl?: string): Database {
  return databaseUrl === undefined ? createSqliteDatabase(dataDir) : createPostgresDatabase(databaseUrl);
}

/** Which database `db` talks to (for the few statements that differ). */
export function dialectOf(db: Sql): DatabaseDialect {
  return (db.client as { dialect?: unknown }).dialect === 'postgresql' ? 'postgres' : 'sqlite';
}

/** What the logs say about the database: 'sqlite' or the URL without its password. */
export function describeDatabase(databaseUrl: string | undefined): string {
  return databaseUrl === undefined ? 'sqlite' : redactDatabaseUrl(databaseUrl);
}

/** Runs every pending migration (compiled TS modules, so this works from dist/). */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: MIGRATION_SOURCE })) as [number, string[]];
  return applied;
}
