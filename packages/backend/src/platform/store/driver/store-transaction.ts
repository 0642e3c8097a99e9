import type { Knex } from 'knex';
import type { Sql } from '../sql';
import { SentWrites } from './sent-writes';

// A unit of work's transaction is one pooled connection between our own BEGIN and COMMIT, not a knex
// Transaction. For each transaction knex builds a full knex object (about 150 query-method closures and
// property definitions of its own) and a client copy with listeners; on a busy backend those objects
// outlived young-generation collections, and the collector's pauses landed in request latencies. Here a
// transaction is its connection, an open flag and a small callable handle (`Sql`) whose builders come
// from knex's own `client.queryBuilder()` / `raw()` / `ref()` on a client that inherits everything from
// the pool's client and only pins the connection: nothing per transaction but a few small objects.
//
// On PostgreSQL the BEGIN takes the event-order lock in the same simple-query message (every unit of
// work takes it first: platform/store/event-order-lock.ts) and is sent, not awaited, like the writes
// nobody waits for (`sendWrite`): the connection runs in pg's pipeline mode (postgres-database.ts), so
// they travel with the next statement that is awaited, or with the COMMIT.

/** The event-order lock's id (pg_advisory_xact_lock). */
export const EVENT_ORDER_LOCK = 7_417_002;

/** A PostgreSQL unit of work's BEGIN: it holds the event-order lock from its first message. */
export const LOCKING_BEGIN = `BEGIN; SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK});`;

/** What a transaction's client carries (under a symbol, so no knex field can collide with it). */
const STATE = Symbol('store transaction');

interface TransactionState {
  connection: object;
  /** Cleared once the work ended: a statement issued later fails instead of running on the connection. */
  open: boolean;
  /** PostgreSQL: the BEGIN and the writes sent, checked once the transaction ended. */
  sent: SentWrites | undefined;
}

/** knex's client, as far as a transaction uses it (public methods of knex's `Client`). */
interface PoolClient {
  dialect: string;
  acquireConnection(): Promise<object>;
  releaseConnection(connection: object): Promise<void>;
  query(connection: object, query: string | Knex.Sql): Promise<unknown>;
  queryBuilder(): Knex.QueryBuilder & { table(name: unknown, options?: unknown): Knex.QueryBuilder };
  raw: Knex.RawBuilder;
  ref: Knex.RefBuilder;
  [STATE]?: TransactionState;
}

function ended(): Error {
  return new Error('the unit of work has ended: a statement issued after it is not run');
}

/** Per pool client, the prototype of its transactions' clients: built once, shared by all of them. */
const prototypes = new WeakMap<PoolClient, PoolClient>();

function transactionClientPrototype(pool: PoolClient): PoolClient {
  let prototype = prototypes.get(pool);
  if (prototype !== undefined) return prototype;
  prototype = Object.create(pool) as PoolClient;
  Object.assign(prototype, {
    transacting: true,
    acquireConnection(this: PoolClient) {
      const state = this[STATE] as TransactionState;
      return state.open ? Promise.resolve(state.connection) : Promise.reject(ended());
    },
    releaseConnection: () => Promise.resolve(),
    query(this: PoolClient, connection: object, query: string | Knex.Sql) {
      return (this[STATE] as TransactionState).open
        ? pool.query.call(this, connection, query)
        : Promise.reject(ended());
    },
  });
  prototypes.set(pool, prototype);
  return prototype;
}

/** The handle a transaction's stores get: builders, raw SQL and references bound to its connection. */
function handleOf(pool: PoolClient, state: TransactionState): Sql {
  const client = Object.create(transactionClientPrototype(pool)) as PoolClient;
  client[STATE] = state;
  const sql = (table: unknown) => client.queryBuilder().table(table);
  return Object.assign(sql, {
    client,
    queryBuilder: () => client.queryBuilder(),
    raw: (...args: Parameters<Knex.RawBuilder>) => client.raw(...args),
    ref: (...args: Parameters<Knex.RefBuilder>) => client.ref(...args),
  }) as unknown as Sql;
}

function stateOf(db: Sql): TransactionState | undefined {
  return (db.client as PoolClient)[STATE];
}

/** Whether `db` is a unit of work's transaction (on PostgreSQL it holds the event-order lock). */
export function isStoreTransaction(db: Sql): boolean {
  return stateOf(db) !== undefined;
}

/**
 * Runs `write` on `db`. In a PostgreSQL transaction of runTransaction it resolves once the statement is
 * queued on the connection (before its answer); anywhere else once the statement ran.
 */
export async function sendWrite(db: Sql, write: Knex.QueryBuilder | Knex.Raw): Promise<void> {
  const state = stateOf(db);
  if (state?.sent === undefined) {
    await write;
    return;
  }
  if (!state.open) throw ended();
  state.sent.track((db.client as PoolClient).query(state.connection, write.toSQL()));
}

/**
 * Runs `work` in a transaction on one of `db`'s pooled connections and commits it; `beforeCommit`'s
 * statement, if any, is sent after the work, so it takes effect with the COMMIT. A failure rolls back
 * and throws: a sent write's own error when one failed (the statements after it failed because of it).
 */
export async function runTransaction<T>(
  db: Pick<Knex, 'client'>,
  work: (sql: Sql) => Promise<T>,
  beforeCommit?: (sql: Sql) => Knex.Raw | undefined,
): Promise<T> {
  const pool = db.client as PoolClient;
  const connection = await pool.acquireConnection();
  const sent = pool.dialect === 'postgresql' ? new SentWrites() : undefined;
  const state: TransactionState = { connection, open: true, sent };
  try {
    if (sent === undefined) await pool.query(connection, 'BEGIN;');
    else sent.track(pool.query(connection, LOCKING_BEGIN));
    const sql = handleOf(pool, state);
    let result: T;
    try {
      result = await work(sql);
      const last = beforeCommit?.(sql);
      if (last !== undefined) await sendWrite(sql, last);
    } catch (error) {
      state.open = false;
      await rollBack(pool, connection); // behind the statements still in flight: they answer first
      await sent?.settle(); // a sent write that failed is the cause of what failed after it
      throw error;
    }
    state.open = false;
    try {
      await pool.query(connection, 'COMMIT;'); // answered ROLLBACK when a sent write failed
    } finally {
      await sent?.settle();
    }
    return result;
  } finally {
    state.open = false;
    await pool.releaseConnection(connection);
  }
}

async function rollBack(pool: PoolClient, connection: object): Promise<void> {
  try {
    await pool.query(connection, 'ROLLBACK;');
  } catch (error) {
    // The connection may still be inside the transaction: knex's pool destroys a connection marked so
    // instead of handing it out again.
    (connection as { __knex__disposed?: unknown }).__knex__disposed = error;
  }
}
