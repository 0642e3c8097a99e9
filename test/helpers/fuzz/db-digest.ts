import { createHash } from 'node:crypto';
import { createDatabase } from '../../../packages/backend/src/store/database';

/** Columns that change on every authenticated request or by the clock, not by what a request asked. */
const VOLATILE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  api_tokens: ['last_used_at'],
};

export interface DatabaseDigest {
  /** Rows per table. */
  counts: Record<string, number>;
  /** sha256 per table over its rows in rowid order (volatile columns left out). */
  digests: Record<string, string>;
}

/**
 * Reads the backend's SQLite file while the backend runs (a second connection) and digests every
 * table: equal digests before and after a refused request mean it wrote nothing.
 */
export async function digestDatabase(dataDir: string): Promise<DatabaseDigest> {
  const db = createDatabase(dataDir);
  try {
    const tables = await db.raw<{ name: string }[]>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    );
    const counts: Record<string, number> = {};
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      const rows = await db.raw<Record<string, unknown>[]>(`SELECT * FROM "${name}" ORDER BY rowid`);
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
  } finally {
    await db.destroy();
  }
}
