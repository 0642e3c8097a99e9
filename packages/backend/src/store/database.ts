import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import knex, { type Knex } from 'knex';
import { MIGRATION_SOURCE } from './migration-source';

export type Database = Knex;

export const DATABASE_FILE_NAME = 'kandev.sqlite3';

interface PragmaConnection {
  pragma(statement: string): unknown;
}

function isPragmaConnection(value: unknown): value is PragmaConnection {
  return typeof value === 'object' && value !== null && typeof (value as PragmaConnection).pragma === 'function';
}

/** SQLite enforces foreign keys only when asked, once per connection. */
function enableForeignKeys(connection: unknown, done: (error: Error | null, connection: unknown) => void): void {
  if (!isPragmaConnection(connection)) {
    done(new Error('expected a better-sqlite3 connection'), connection);
    return;
  }
  try {
    connection.pragma('foreign_keys = ON');
    done(null, connection);
  } catch (error) {
    done(error instanceof Error ? error : new Error(String(error)), connection);
  }
}

/** A knex instance on `<dataDir>/kandev.sqlite3`; the directory is created when missing. */
export function createDatabase(dataDir: string): Database {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  return knex({
    client: 'better-sqlite3',
    connection: { filename: join(dir, DATABASE_FILE_NAME) },
    useNullAsDefault: true,
    pool: { min: 1, max: 1, afterCreate: enableForeignKeys },
  });
}

/** Runs every pending migration (compiled TS modules, so this works from dist/). */
export async function migrateToLatest(db: Database): Promise<string[]> {
  const [, applied] = (await db.migrate.latest({ migrationSource: MIGRATION_SOURCE })) as [number, string[]];
  return applied;
}
