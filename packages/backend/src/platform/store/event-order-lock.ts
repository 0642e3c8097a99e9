import type { Knex } from 'knex';
import { dialectOf } from './database';
import { EVENT_ORDER_LOCK, isStoreTransaction, runTransaction } from './driver/store-transaction';
import type { Sql } from './sql';

/**
 * Event ids must follow commit order: a stream reads `id > cursor`, so an id committed after a higher one
 * would never be read. SQLite has one writer, so they always do. On PostgreSQL the id comes from a
 * sequence at insert time, so every transaction that may append events takes a transaction-scoped
 * advisory lock (EVENT_ORDER_LOCK) as its first statement (no row lock can be held before it, so it adds
 * no deadlock) and appends run under it: event-appending writers commit one after another, as on SQLite.
 * A unit of work takes it in its BEGIN (platform/store/driver/store-transaction.ts).
 */

/** knex transactions that took the lock: it is held to their end, so taking it again is a wasted round trip. */
const holding = new WeakSet<object>();

/** Runs `write` under the lock: in the caller's transaction, or in a transaction of its own. */
export async function underEventOrder(db: Sql, write: (db: Sql) => Promise<void>): Promise<void> {
  if (dialectOf(db) !== 'postgres' || isStoreTransaction(db)) return write(db);
  if ((db as Partial<Knex.Transaction>).isTransaction === true) {
    // A knex transaction (not a unit of work's): it takes the lock with a statement of its own, once.
    if (!holding.has(db)) await db.raw('SELECT pg_advisory_xact_lock(?)', [EVENT_ORDER_LOCK]);
    holding.add(db);
    return write(db);
  }
  await runTransaction(db, write);
}
