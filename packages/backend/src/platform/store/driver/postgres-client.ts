import type { Knex } from 'knex';
import { StatementNames } from './postgres-statement-names';

// knex's PostgreSQL client, changed in one place: statements that repeat run as named statements, parsed
// and planned once per connection (postgres-statement-names.ts). knex has no public hook for the options
// it hands the driver, so this subclasses its PostgreSQL client (at the path knex 3 keeps it) and
// overrides `_query`, knex's last step before `pg`.

/** What knex hands its driver: the SQL, its values, and options merged into pg's query config. */
interface DriverQuery {
  sql: string;
  bindings?: readonly unknown[];
  options?: Record<string, unknown>;
}

/* eslint-disable @typescript-eslint/no-require-imports -- knex's internals have no typings */
const PgClient = require('knex/lib/dialects/postgres/index.js') as typeof Knex.Client;
/* eslint-enable @typescript-eslint/no-require-imports */

/** One for the process: a unit of work's client inherits from its pool's (store-transaction.ts). */
const statementNames = new StatementNames();

const PgClientQuery = PgClient.prototype as unknown as { _query(connection: unknown, query: DriverQuery): unknown };

/** The client for `knex({ client: PostgresClient })`: knex's PostgreSQL client, naming repeated statements. */
export class PostgresClient extends PgClient {
  /** pg takes `options.name` as the statement's name. */
  _query(connection: unknown, query: DriverQuery): unknown {
    const name = statementNames.nameFor(query.sql, query.bindings?.length ?? 0);
    // In place: knex reads the driver's answer off this object.
    if (name !== undefined && query.options?.name === undefined) query.options = { ...query.options, name };
    return PgClientQuery._query.call(this, connection, query);
  }
}
