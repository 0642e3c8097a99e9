import type { Knex } from 'knex';
import { takeSentBegin } from './postgres/postgres-client';

// On PostgreSQL each statement costs a round trip, and round trips were most of its latencies
// (docs/database.md#postgresql). Its connections run in pg's pipeline mode: a statement goes on the wire
// at once, behind those still awaiting their answers. A write whose answer its caller does not need (an
// event, a row whose key the caller chose) is therefore *sent* inside a unit of work's transaction, not
// awaited: the next statement, or the COMMIT, travels in the same round trip. The connection runs
// statements in the order they were sent, so the transaction reads its own writes as before. A sent
// write that fails aborts the transaction (later statements fail, COMMIT rolls back) and the unit of
// work throws that write's own error. On SQLite, and outside a unit of work, a write is awaited as always.

/** The writes a transaction sent: what its unit of work checks once the transaction ended. */
export class SentWrites {
  private readonly answers: Promise<void>[] = [];
  private failure: { error: unknown } | undefined;

  /** Keeps `answer`; its rejection is held (never unhandled) until `settle`. */
  track(answer: Promise<unknown>): void {
    this.answers.push(
      answer.then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= { error };
        },
      ),
    );
  }

  /** Waits for every answer; throws the first failed write's error (the transaction rolled back). */
  async settle(): Promise<void> {
    await Promise.all(this.answers);
    if (this.failure !== undefined) throw this.failure.error;
  }
}

/** Transactions whose writes may be sent: a unit of work's own, on PostgreSQL. */
const sending = new WeakMap<Knex, SentWrites>();

interface TransactionClient {
  acquireConnection(): Promise<object>;
  query(connection: object, query: Knex.Sql): Promise<unknown>;
}

/**
 * Lets `trx` send writes, tracked by `writes` (a unit of work's transaction, on PostgreSQL); its BEGIN,
 * if sent (EVENT_ORDER_SENT_BEGIN), is tracked with them.
 */
export async function sendWritesIn(trx: Knex.Transaction, writes: SentWrites): Promise<void> {
  sending.set(trx, writes);
  const begun = takeSentBegin(await (trx.client as TransactionClient).acquireConnection());
  if (begun !== undefined) writes.track(begun);
}

/**
 * Runs `write` on `db`. In a transaction that sends writes, it resolves once the statement is on its
 * connection's queue (before the answer); otherwise once the statement ran.
 */
export async function sendWrite(db: Knex, write: Knex.QueryBuilder | Knex.Raw): Promise<void> {
  const writes = sending.get(db);
  if (writes === undefined) {
    await write;
    return;
  }
  const client = db.client as TransactionClient;
  const connection = await client.acquireConnection();
  // knex's own path from here to the driver is synchronous: the statement is queued in call order.
  writes.track(client.query(connection, write.toSQL()));
}

/**
 * Waits for every piece of a transaction's work sent together, then throws the first failure in
 * argument order: a transaction does not roll back while its other statements are still in flight.
 */
export async function settleAll<T extends readonly unknown[]>(...work: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const results = await Promise.allSettled(work);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
