import type { Knex } from 'knex';
import type { Sql } from '../../store/sql';
import type { ClientConfig } from 'pg';
import { z } from 'zod';
import type { Logger } from '../../logger/logger';
import type { BackoffPolicy } from '../../retry/retry-backoff';
import { KeptConnection, type Schedule } from './pg-kept-connection';
import {
  type ReplicaPresence,
  type ReplicaSignals,
  type Signal,
  type SignalListener,
  SignalListeners,
  SIGNAL_NAMES,
  type SignalName,
} from '../replica-signals';

// PostgreSQL (several replicas on one database): LISTEN on one channel over a dedicated connection,
// NOTIFY inside the transaction that commits what it signals (delivered at its COMMIT, never after a
// rollback), or through the pool right after a write outside one. A dropped
// listener reconnects with backoff and then tells every subscriber to resync, so a NOTIFY sent while it
// was away costs a read, never a wake-up.
// Presence is a second dedicated connection whose application_name carries the replica id: one read of
// pg_stat_activity says which replicas run, and a crashed process's presence ends with its connection.
// (Not the listener's: a listener being reconnected must not make its replica look gone.)

export const SIGNAL_CHANNEL = 'kandev_replica_signals';
const PRESENCE_PREFIX = 'kandev-replica:';
const LISTENER_PREFIX = 'kandev-listener:';

const WireSchema = z.object({ r: z.string(), n: z.enum(SIGNAL_NAMES), p: z.string() });
type Wire = z.infer<typeof WireSchema>;

export interface PgReplicaSignalsDeps {
  replicaId: string;
  /** The pool: NOTIFY after the commit goes through it, and presence is read with it. */
  db: Knex;
  /** The dedicated connections' settings (listenerConnectionOf(db)). */
  connection: ClientConfig;
  logger: Logger;
  /** Reconnect delays of the dedicated connections (maxAttempts is ignored: they retry until closed). */
  reconnect?: BackoffPolicy;
  random?: () => number;
  /** The listener's reconnect timer (tests fire it themselves); default a real one. */
  schedule?: Schedule;
}

/** The dedicated connections' settings from a knex pg pool (its config's `connection`). */
export function listenerConnectionOf(db: Knex): ClientConfig {
  const config = (db.client as { config: { connection?: unknown } }).config.connection;
  if (typeof config === 'string') return { connectionString: config };
  if (typeof config === 'object' && config !== null) return { ...(config as ClientConfig) };
  return {};
}

export class PgReplicaSignals implements ReplicaSignals, ReplicaPresence {
  readonly replicaId: string;
  /** Each replica's presence connection is `<presencePrefix><replica id>` in pg_stat_activity. */
  readonly presencePrefix = PRESENCE_PREFIX;
  private readonly listeners = new SignalListeners();
  private readonly listener: KeptConnection;
  private readonly presence: KeptConnection;
  private pending = new Map<string, Wire>();
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private closed = false;

  constructor(private readonly deps: PgReplicaSignalsDeps) {
    this.replicaId = deps.replicaId;
    const { connection, logger, reconnect, random } = deps;
    this.listener = new KeptConnection({
      ...{ connection, logger, reconnect, random, schedule: deps.schedule },
      applicationName: LISTENER_PREFIX + deps.replicaId,
      onConnected: async (client) => {
        await client.query(`LISTEN ${SIGNAL_CHANNEL}`);
        // Whatever was signalled while nobody listened: every subscriber reads again.
        this.listeners.resyncAll((err) => this.logError(err, 'a signal resync failed'));
      },
      onNotification: (channel, payload) => this.receive(channel, payload),
    });
    this.presence = new KeptConnection({
      ...{ connection, logger, reconnect, random },
      applicationName: PRESENCE_PREFIX + deps.replicaId,
      onConnected: () => Promise.resolve(),
    });
  }

  publish(name: SignalName, payload = ''): void {
    this.deliver([{ name, payload }]);
    this.pending.set(`${name}:${payload}`, { r: this.replicaId, n: name, p: payload });
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // Coalesced: every signal published in one tick leaves in one statement.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flushing = this.flushing.then(() => this.flush());
    });
  }

  notifyStatement(db: Sql, signals: readonly Signal[]): Knex.Raw | undefined {
    if (signals.length === 0) return undefined;
    return this.notify(
      db,
      signals.map(({ name, payload }) => ({ r: this.replicaId, n: name, p: payload })),
    );
  }

  deliver(signals: readonly Signal[]): void {
    for (const { name, payload } of signals) {
      this.listeners.deliver(name, payload, (err) => this.logError(err, 'a signal listener failed'));
    }
  }

  subscribe(name: SignalName, listener: SignalListener): () => void {
    return this.listeners.add(name, listener);
  }

  async ready(): Promise<void> {
    await Promise.all([this.listener.ready(), this.presence.ready()]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flushing;
    await Promise.all([this.listener.close(), this.presence.close()]);
  }

  /** The server pid of the listener connection (tests end it with pg_terminate_backend). */
  get listenerPid(): number | undefined {
    return this.listener.pid;
  }

  /** How often the listener connected (1 + reconnects). */
  get connects(): number {
    return this.listener.connects;
  }

  async isAlive(replicaId: string): Promise<boolean> {
    if (replicaId === this.replicaId) return true;
    const row: unknown = await this.deps
      .db('pg_stat_activity')
      .where({ application_name: PRESENCE_PREFIX + replicaId })
      .first(this.deps.db.raw('1 as alive'));
    return row !== undefined;
  }

  async alive(): Promise<string[]> {
    const rows = await this.deps
      .db<{ application_name: string }>('pg_stat_activity')
      .distinct('application_name')
      .where('application_name', 'like', `${PRESENCE_PREFIX}%`);
    const ids = new Set(rows.map((row) => row.application_name.slice(PRESENCE_PREFIX.length)));
    ids.add(this.replicaId);
    return [...ids];
  }

  private async flush(): Promise<void> {
    const batch = [...this.pending.values()];
    this.pending = new Map();
    if (batch.length === 0 || this.closed) return;
    try {
      await this.notify(this.deps.db, batch);
    } catch (err) {
      // The other replicas miss these; their holders still settle at their timeout (the row decides).
      this.logError(err, 'could not send signals to the other replicas');
    }
  }

  private notify(db: Sql, batch: readonly Wire[]): Knex.Raw {
    const calls = batch.map(() => 'pg_notify(?, ?)').join(', ');
    return db.raw(
      `select ${calls}`,
      batch.flatMap((wire) => [SIGNAL_CHANNEL, JSON.stringify(wire)]),
    );
  }

  private receive(channel: string, payload: string | undefined): void {
    if (channel !== SIGNAL_CHANNEL || payload === undefined) return;
    let wire: Wire;
    try {
      wire = WireSchema.parse(JSON.parse(payload));
    } catch (err) {
      this.logError(err, 'an unreadable replica signal was ignored');
      return;
    }
    // This replica's own signals were delivered when published or committed.
    if (wire.r === this.replicaId) return;
    this.listeners.deliver(wire.n, wire.p, (err) => this.logError(err, 'a signal listener failed'));
  }

  private logError(err: unknown, message: string): void {
    this.deps.logger.error({ err }, message);
  }
}
