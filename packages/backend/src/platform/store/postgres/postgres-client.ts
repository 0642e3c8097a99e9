import type { Knex } from 'knex';
import { StatementNames } from './postgres-statement-names';

// knex's PostgreSQL client, with two changes. A transaction started with `EVENT_ORDER_BEGIN` takes the
// event-order lock (platform/store/event-order-lock.ts) in the same round trip as its BEGIN, one simple-query
// message `BEGIN; SELECT pg_advisory_xact_lock(n);`. Every unit of work takes that lock first, so this
// saves a round trip per transaction (docs/database.md#postgresql). And repeated statements
// run as named statements, parsed and planned once per connection (postgres-statement-names.ts).
// knex has no public hook for either: this subclasses its PostgreSQL client and transaction, which
// knex 3 keeps at these paths.

/** The event-order lock's id (pg_advisory_xact_lock). */
export const EVENT_ORDER_LOCK = 7_417_002;

const LOCKING_BEGIN = `BEGIN; SELECT pg_advisory_xact_lock(${EVENT_ORDER_LOCK});`;

/** The marker a transaction's config carries to take the lock in its BEGIN. */
const LOCK_IN_BEGIN = 'kandevEventOrderLock';

/** The marker of a transaction whose BEGIN is sent, not awaited (a unit of work's: platform/store/sent-writes.ts). */
const SEND_BEGIN = 'kandevSendBegin';

/** `db.transaction(work, EVENT_ORDER_BEGIN)`: the transaction holds the event-order lock from its BEGIN. */
export const EVENT_ORDER_BEGIN = { [LOCK_IN_BEGIN]: true } as Knex.TransactionConfig;

/**
 * EVENT_ORDER_BEGIN, with the BEGIN sent rather than awaited: the transaction's first statement travels
 * with it. The caller must take its answer (`takeSentBegin`) and fail the transaction if it failed.
 */
export const EVENT_ORDER_SENT_BEGIN = { [LOCK_IN_BEGIN]: true, [SEND_BEGIN]: true } as Knex.TransactionConfig;

/** The answers of BEGINs sent and not yet taken, by connection. */
const sentBegins = new WeakMap<object, Promise<unknown>>();

/** The answer of the BEGIN sent on `connection` (once; undefined when none was sent). */
export function takeSentBegin(connection: object): Promise<unknown> | undefined {
  const answer = sentBegins.get(connection);
  sentBegins.delete(connection);
  return answer;
}

/** The userParams flag of a transaction that holds the lock since its BEGIN (what lockEventOrder reads). */
export const LOCKED_IN_BEGIN = 'eventOrderLockedInBegin';

interface TransactionInternals {
  userParams?: Record<string, unknown>;
  /** The transaction's client, set before `begin` runs: sends a statement, rejecting on error. */
  trxClient: { query(connection: unknown, sql: string): Promise<unknown> };
  begin(connection: unknown): Promise<unknown>;
  /** knex's own statement of a transaction; status 2 with `value` rejects the transaction once it ran. */
  query(connection: unknown, sql: string, status?: number, value?: unknown): Promise<unknown>;
}

type TransactionClass = new (
  client: unknown,
  container: unknown,
  config?: Record<string, unknown>,
  outerTx?: unknown,
) => TransactionInternals;

/* eslint-disable @typescript-eslint/no-require-imports -- knex's internals have no typings */
const PgClient = require('knex/lib/dialects/postgres/index.js') as typeof Knex.Client;
const PgTransaction = require('knex/lib/dialects/postgres/execution/pg-transaction.js') as TransactionClass;
/* eslint-enable @typescript-eslint/no-require-imports */

class EventOrderTransaction extends PgTransaction {
  private readonly locks: boolean;
  private readonly sendsBegin: boolean;

  constructor(client: unknown, container: unknown, config: Record<string, unknown> = {}, outerTx?: unknown) {
    super(client, container, config, outerTx);
    // A nested transaction is a savepoint: its outer transaction took the lock.
    this.locks = config[LOCK_IN_BEGIN] === true && outerTx == null;
    this.sendsBegin = this.locks && config[SEND_BEGIN] === true;
  }

  override begin(connection: unknown): Promise<unknown> {
    if (!this.locks) return super.begin(connection);
    // knex copies userParams onto the transaction's knex object once BEGIN answered.
    this.userParams = { ...this.userParams, [LOCKED_IN_BEGIN]: true };
    const answer = this.trxClient.query(connection, LOCKING_BEGIN);
    if (this.sendsBegin) {
      // The work starts now; its statements queue behind the BEGIN on the connection. A failed lock
      // leaves the transaction aborted: its statements fail, COMMIT rolls back, and the caller throws
      // the lock's error from the answer it took.
      answer.catch(() => undefined);
      sentBegins.set(connection as object, answer);
      return Promise.resolve();
    }
    return answer.catch(
      // BEGIN ran and the lock failed (a lock_timeout, a cancel): the transaction is open and aborted.
      // Roll it back and fail the transaction with the error, as knex's rollback does, so the
      // connection goes back to the pool clean.
      (error: unknown) => this.query(connection, 'ROLLBACK;', 2, error),
    );
  }
}

/** What knex hands its driver: the SQL, its values, and options merged into pg's query config. */
interface DriverQuery {
  sql: string;
  bindings?: readonly unknown[];
  options?: Record<string, unknown>;
}

/** One for the process: knex's transaction clients are copies of their pool's client without its fields. */
const statementNames = new StatementNames();

const PgClientQuery = PgClient.prototype as unknown as { _query(connection: unknown, query: DriverQuery): unknown };

/**
 * The client for `knex({ client: PostgresClient })`: knex's PostgreSQL client, locking in BEGIN on
 * request and naming repeated statements.
 */
export class PostgresClient extends PgClient {
  /** knex's last step before the driver: pg takes `options.name` as the statement's name. */
  _query(connection: unknown, query: DriverQuery): unknown {
    const name = statementNames.nameFor(query.sql, query.bindings?.length ?? 0);
    // In place: knex reads the driver's answer off this object.
    if (name !== undefined && query.options?.name === undefined) query.options = { ...query.options, name };
    return PgClientQuery._query.call(this, connection, query);
  }

  override transaction(container: unknown, config: Record<string, unknown> | undefined, outerTx: unknown) {
    return new EventOrderTransaction(this, container, config, outerTx) as unknown as Knex.Transaction;
  }
}
