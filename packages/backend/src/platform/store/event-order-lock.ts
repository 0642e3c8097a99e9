import type { Knex } from 'knex';
import { dialectOf } from './database';
import { EVENT_ORDER_BEGIN, EVENT_ORDER_LOCK, LOCKED_IN_BEGIN } from './postgres/postgres-client';

/**
 * Event ids must follow commit order: a stream reads `id > cursor`, so an id committed after a higher one
 * would never be read. SQLite has one writer, so they always do. On PostgreSQL the id comes from a
 * sequence at insert time, so every transaction that may append events takes this transaction-scoped
 * advisory lock as its first statement (no row lock can be held before it, so it adds no deadlock) and
 * appends run under it: event-appending writers commit one after another, as on SQLite. (The lock's id is
 * EVENT_ORDER_LOCK, in platform/store/postgres/postgres-client.ts.)
 */

/** Transactions that hold the lock: it is held to their end, so taking it again is a wasted round trip. */
const holding = new WeakSet<Knex>();

/**
 * Takes the lock in `trx` on PostgreSQL (once per transaction); nothing on SQLite. A transaction begun
 * with `EVENT_ORDER_BEGIN` took it in its BEGIN (platform/store/postgres/postgres-client.ts).
 */
export async function lockEventOrder(trx: Knex): Promise<void> {
  if (dialectOf(trx) !== 'postgres' || holding.has(trx) || trx.userParams[LOCKED_IN_BEGIN] === true) return;
  await trx.raw('SELECT pg_advisory_xact_lock(?)', [EVENT_ORDER_LOCK]);
  holding.add(trx);
}

/** Runs `write` under the lock: in the caller's transaction, or in a transaction of its own. */
export async function underEventOrder(db: Knex, write: (trx: Knex) => Promise<void>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return write(db);
  if ((db as Knex.Transaction).isTransaction === true) {
    await lockEventOrder(db);
    return write(db);
  }
  await db.transaction(async (trx) => {
    await lockEventOrder(trx);
    await write(trx);
  }, EVENT_ORDER_BEGIN);
}
