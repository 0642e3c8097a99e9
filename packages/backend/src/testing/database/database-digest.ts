import { createHash } from 'node:crypto';
import type { Database } from '../../platform/store/database';
import type { Cleanup } from '../cleanup';
import { onPostgres, openTestDatabase } from './test-database';

/** Columns that change on every authenticated request or by the clock, not by what a request asked. */
const VOLATILE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_tokens: ['last_used_at'],
};

/**
 * Tables whose rows come and go with the replica's background work, whatever the requests: on
 * PostgreSQL the Attach lease is renewed, and the reconciler and sweepers hold a lease row for as long as
 * they work on a session or an agentctl, timer-driven.
 */
const BACKGROUND_TABLES: ReadonlySet<string> = new Set(['leases']);

export interface DatabaseDigest {
  /** Rows per table. */
  counts: Record<string, number>;
  /** sha256 per table over its rows in rowid order (volatile columns left out). */
  digests: Record<string, string>;
}

async function tableNames(db: Database): Promise<string[]> {
  if (!onPostgres()) {
    const rows = await db.raw<{ name: string }[]>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    );
    return rows.map((row) => row.name);
  }
  const { rows } = await db.raw<{ rows: { name: string }[] }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  return rows.map((row) => row.name);
}

/** Every row in a stable order: rowid on SQLite; PostgreSQL has none, so by the whole row's text there. */
async function tableRows(db: Database, name: string): Promise<Record<string, unknown>[]> {
  if (!onPostgres()) return db.raw<Record<string, unknown>[]>(`SELECT * FROM "${name}" ORDER BY rowid`);
  const { rows } = await db.raw<{ rows: Record<string, unknown>[] }>(`SELECT * FROM "${name}" AS r ORDER BY r::text`);
  return rows;
}

/** sha256 per table and row counts, over one connection. */
async function digestOver(db: Database): Promise<DatabaseDigest> {
  const counts: Record<string, number> = {};
  const digests: Record<string, string> = {};
  for (const name of await tableNames(db)) {
    if (BACKGROUND_TABLES.has(name)) continue;
    const rows = await tableRows(db, name);
    const volatile = VOLATILE_COLUMNS[name] ?? [];
    const hash = createHash('sha256');
    for (const row of rows) {
      const kept = Object.entries(row).filter(([column]) => !volatile.includes(column));
      hash.update(
        JSON.stringify(kept, (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : value)),
      );
    }
    counts[name] = rows.length;
    digests[name] = hash.digest('hex');
  }
  return { counts, digests };
}

/**
 * Reads the backend's database while the backend runs (a second connection, kept open until `cleanup`
 * runs: a fuzz run digests before and after every request) and digests every table: equal digests
 * before and after a refused request mean it wrote nothing.
 */
export async function databaseDigester(dataDir: string, cleanup: Cleanup): Promise<() => Promise<DatabaseDigest>> {
  const db = await openTestDatabase(dataDir);
  cleanup.defer(() => db.destroy());
  return () => digestOver(db);
}
