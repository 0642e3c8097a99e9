import knex, { type Knex } from 'knex';
import { PostgresClient } from './postgres-client';
import { TurnCorkedSocket } from './turn-corked-socket';

// PostgreSQL (KANDEV_DATABASE_URL=postgres://…): knex with the `pg` driver. The URL may carry a
// password: it is handed to the driver and nowhere else; anything shown (logs, errors) goes through
// `redactDatabaseUrl`.

const SCHEMES = ['postgres:', 'postgresql:'];

/** Whether `value` is a PostgreSQL connection URL (postgres:// or postgresql:// with a host). */
export function isPostgresUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return SCHEMES.includes(url.protocol) && url.hostname !== '';
  } catch {
    return false;
  }
}

/** The URL without its password (user, host, port, database and options stay): safe to log. */
export function redactDatabaseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return 'postgres://(unparseable)';
  }
}

/**
 * A knex pool on the server `url` names. Timestamps come back as Dates, JSON parsed, booleans as
 * booleans (platform/store/row-values.ts reads both dialects); bigint counts as strings (callers use Number()).
 */
export function createPostgresDatabase(url: string, pool: { min: number; max: number } = { min: 0, max: 10 }): Knex {
  // pipeline (pg 8.23, not in knex's types): statements go on the wire at once, behind those awaiting
  // answers, so a sent write travels with the next statement (sent-writes.ts). stream (pg's hook for its
  // socket, not in knex's types): the statements of one turn leave in one write (turn-corked-socket.ts).
  const connection: Knex.PgConnectionConfig & { pipeline: boolean; stream: () => TurnCorkedSocket } = {
    connectionString: url,
    application_name: 'kandev',
    pipeline: true,
    stream: () => new TurnCorkedSocket(),
  };
  return knex({
    client: PostgresClient,
    connection,
    pool,
  });
}
