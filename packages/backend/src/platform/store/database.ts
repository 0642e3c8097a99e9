import knex, { type Knex } from 'knex';
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

/** The PostgreSQL advisory lock every replica takes around its migrations ('kand' in ASCII). */
export const MIGRATION_LOCK = 0x6b616e64;

/**
 * Runs every pending migration (compiled TS modules, so this works from dist/). On PostgreSQL under
 * MIGRATION_LOCK: replicas starting together migrate one at a time, and the later ones find nothing
 * left to do (knex's own lock table makes a second migrator fail instead of waiting).
 */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const migrate = async () => {
    const [, applied] = (await db.migrate.latest({ migrationSource: MIGRATION_SOURCE })) as [number, string[]];
    return applied;
  };
  return dialectOf(db) === 'postgres' ? underMigrationLock(db, migrate) : migrate();
}

/**
 * Holds the transaction-level advisory lock for the whole of `run`, in a transaction on a connection of
 * its own (the migrations use the pool, which may have one connection only). The lock goes with the
 * transaction, and with the connection if the process dies.
 */
async function underMigrationLock<T>(db: Database, run: () => Promise<T>): Promise<T> {
  const lockDb = knex({ ...(db.client as { config: Knex.Config }).config, pool: { min: 0, max: 1 } });
  try {
    return await lockDb.transaction(async (trx) => {
      await trx.raw('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK]);
      return run();
    });
  } finally {
    await lockDb.destroy();
  }
}
