import type { Knex } from 'knex';
import { dialectOf } from '../store/database';
import type { Lease } from './lease-rules';

// The `leases` table (migration 015). Each write is one conditional statement, or one transaction that
// locks what it claims, so it is atomic on SQLite (one writer) and on PostgreSQL (row locks): the rules
// are lease-rules.ts, applied in SQL.

interface LeaseRow {
  name: string;
  owner: string;
  expires_at_ms: number | string; // PostgreSQL returns bigint as a string
}

function leaseFromRow(row: LeaseRow): Lease {
  return { name: row.name, owner: row.owner, expiresAtMs: Number(row.expires_at_ms) };
}

/** Rows a raw statement returned: an array (better-sqlite3) or `{ rows }` (pg). */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

export interface LeaseStoreOptions {
  /**
   * PostgreSQL with replica presence (pg-replica-signals): a lease whose owner has no connection named
   * `<presencePrefix><owner>` in pg_stat_activity is free before it expires. That replica's process is
   * gone (its connections ended with it), so its work is taken over at once, not after the TTL.
   */
  presencePrefix?: string;
}

export class LeaseStore {
  constructor(
    private readonly db: Knex,
    private readonly options: LeaseStoreOptions = {},
  ) {}

  /** The condition "the owner of the `leases` row is gone" and its binding; undefined without presence. */
  private ownerGone(): { sql: string; bindings: string[] } | undefined {
    const prefix = this.options.presencePrefix;
    if (prefix === undefined) return undefined;
    // The function behind the pg_stat_activity view, without the view's joins: planning the view made
    // each claim the largest PostgreSQL cost of a launch (docs/benchmarks.md). Every role may read
    // any backend's application_name.
    const sql = 'NOT EXISTS (SELECT 1 FROM pg_stat_get_activity(NULL) WHERE application_name = ? || leases.owner)';
    return { sql, bindings: [prefix] };
  }

  async find(name: string): Promise<Lease | undefined> {
    const row = await this.db('leases').where({ name }).first<LeaseRow | undefined>('name', 'owner', 'expires_at_ms');
    return row === undefined ? undefined : leaseFromRow(row);
  }

  /**
   * lease-rules `claim` in one statement: insert, or take over a row that expired or is already ours.
   * True when `owner` holds `name` until `nowMs + ttlMs` afterwards.
   */
  async claim(name: string, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const gone = this.ownerGone();
    const result: unknown = await this.db.raw(
      `INSERT INTO leases (name, owner, expires_at_ms, acquired_at_ms) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET
         owner = excluded.owner,
         expires_at_ms = excluded.expires_at_ms,
         acquired_at_ms = CASE WHEN leases.owner = excluded.owner THEN leases.acquired_at_ms
                               ELSE excluded.acquired_at_ms END
       WHERE leases.owner = excluded.owner OR leases.expires_at_ms <= ?${gone === undefined ? '' : ` OR ${gone.sql}`}
       RETURNING name`,
      [name, owner, nowMs + ttlMs, nowMs, nowMs, ...(gone?.bindings ?? [])],
    );
    return rowsOf<{ name: string }>(result).length === 1;
  }

  /**
   * `claim` for many names in one transaction: the free ones (or ours) among them are locked, skipping
   * rows another replica is claiming right now (PostgreSQL: FOR UPDATE SKIP LOCKED), and taken.
   * Resolves the names `owner` now holds.
   */
  async claimMany(names: readonly string[], owner: string, nowMs: number, ttlMs: number): Promise<string[]> {
    if (names.length === 0) return [];
    const sorted = [...new Set(names)].sort(); // one lock order: no deadlock between two batches
    return this.db.transaction(async (trx) => {
      // Free rows for names never claimed, so the select below can lock them.
      await trx('leases')
        .insert(sorted.map((name) => ({ name, owner: '', expires_at_ms: 0, acquired_at_ms: 0 })))
        .onConflict('name')
        .ignore();
      const gone = this.ownerGone();
      let query = trx('leases')
        .whereIn('name', sorted)
        .where((q) => {
          q.where('owner', owner).orWhere('expires_at_ms', '<=', nowMs);
          if (gone !== undefined) q.orWhereRaw(gone.sql, gone.bindings);
        })
        .orderBy('name')
        .select<{ name: string; owner: string }[]>('name', 'owner');
      if (dialectOf(this.db) === 'postgres') query = query.forUpdate().skipLocked();
      const free = await query;
      if (free.length === 0) return [];
      const taken = free.map((row) => row.name);
      await trx('leases')
        .whereIn('name', taken)
        .update({ owner, expires_at_ms: nowMs + ttlMs });
      await trx('leases')
        .whereIn(
          'name',
          free.filter((row) => row.owner !== owner).map((row) => row.name),
        )
        .update({ acquired_at_ms: nowMs });
      return taken;
    });
  }

  /** The leases named `<prefix>…` held at `nowMs`, by name. */
  async listHeld(prefix: string, nowMs: number): Promise<Lease[]> {
    const rows = await this.db('leases')
      .where('name', 'like', `${prefix}%`)
      .where('expires_at_ms', '>', nowMs)
      .orderBy('name')
      .select<LeaseRow[]>('name', 'owner', 'expires_at_ms');
    return rows.map(leaseFromRow);
  }

  /** lease-rules `renew`: only the owner of a lease still held extends it. */
  async renew(name: string, owner: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const updated = await this.db('leases')
      .where({ name, owner })
      .where('expires_at_ms', '>', nowMs)
      .update({ expires_at_ms: nowMs + ttlMs });
    return updated === 1;
  }

  /** Frees `name` if `owner` holds it (true when it did). */
  async release(name: string, owner: string): Promise<boolean> {
    return (await this.db('leases').where({ name, owner }).delete()) === 1;
  }

  /**
   * Deletes up to `limit` leases that expired by `nowMs` (with presence, only those whose owner is gone):
   * rows a replica that died left, which nobody would ever claim again (a launch whose session ended,
   * an agentctl that went away). An expired row is free anyway, so deleting it changes no claim; the
   * conditions are checked again on the row deleted, so a lease claimed meanwhile stays. Resolves how many.
   */
  async deleteExpired(nowMs: number, limit: number): Promise<number> {
    const gone = this.ownerGone();
    const dead = `expires_at_ms <= ?${gone === undefined ? '' : ` AND ${gone.sql}`}`;
    const bindings = [nowMs, ...(gone?.bindings ?? [])];
    const result: unknown = await this.db.raw(
      `DELETE FROM leases WHERE name IN (SELECT name FROM leases WHERE ${dead} ORDER BY expires_at_ms LIMIT ?)
       AND ${dead} RETURNING name`,
      [...bindings, limit, ...bindings],
    );
    return rowsOf<{ name: string }>(result).length;
  }

  /** Frees every lease `owner` holds (a replica stopping gracefully); resolves how many. */
  async releaseAll(owner: string): Promise<number> {
    return this.db('leases').where({ owner }).delete();
  }
}
