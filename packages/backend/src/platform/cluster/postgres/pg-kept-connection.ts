import { Client, type ClientConfig } from 'pg';
import type { Logger } from '../../logger/logger';
import { type BackoffPolicy, retryDelayMs } from '../../retry/retry-backoff';

// One dedicated PostgreSQL connection kept open (not from the pool: LISTEN and presence belong to a
// session): reconnected with backoff and jitter whenever it drops, until closed. `onConnected` runs on
// each new connection before it counts as up (LISTEN, then the subscribers' resync).

/** Starts a timer and returns its cancel; tests pass one they fire themselves. */
export type Schedule = (ms: number, fire: () => void) => () => void;

const realSchedule: Schedule = (ms, fire) => {
  const timer = setTimeout(fire, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export const RECONNECT: BackoffPolicy = { baseMs: 100, maxDelayMs: 5_000, maxAttempts: 0 };

/** TCP keepalives the server runs on a kept connection: first probe after 10 s idle, 5 s apart, 3 lost ends it. */
export const SERVER_KEEPALIVES = '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3';

export interface KeptConnectionDeps {
  connection: ClientConfig;
  /** What pg_stat_activity shows for this connection. */
  applicationName: string;
  logger: Logger;
  onConnected: (client: Client) => Promise<void>;
  onNotification?: (channel: string, payload: string | undefined) => void;
  reconnect?: BackoffPolicy;
  random?: () => number;
  schedule?: Schedule;
}

export class KeptConnection {
  private client: Client | undefined;
  private closed = false;
  private attempt = 0;
  private cancelTimer: () => void = () => undefined;
  private readonly up: Promise<void>;
  private markUp: () => void = () => undefined;
  /** The server pid of the current connection (tests end it with pg_terminate_backend). */
  pid: number | undefined;
  /** How often it connected. */
  connects = 0;

  constructor(private readonly deps: KeptConnectionDeps) {
    this.up = new Promise((resolve) => (this.markUp = resolve));
    void this.connect();
  }

  /** Resolves once connected the first time. */
  ready(): Promise<void> {
    return this.up;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelTimer();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({
      ...this.deps.connection,
      application_name: this.deps.applicationName,
      keepAlive: true,
      // The server probes this connection too: a replica whose host died (no FIN ever comes) loses its
      // presence within about 25 s instead of the operating system's default two hours.
      options: [this.deps.connection.options, SERVER_KEEPALIVES].filter(Boolean).join(' '),
    });
    client.on('notification', (message) => this.deps.onNotification?.(message.channel, message.payload));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, undefined));
    this.client = client;
    try {
      await client.connect();
      const result = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      this.pid = result.rows[0]?.pid;
      await this.deps.onConnected(client);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.client !== client) return;
    this.attempt = 0;
    this.connects += 1;
    this.markUp();
  }

  private lost(client: Client, err: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (this.closed) return;
    const delay = retryDelayMs(this.attempt, this.deps.reconnect ?? RECONNECT, this.deps.random);
    this.attempt += 1;
    this.deps.logger.warn(
      { err, delayMs: delay, connection: this.deps.applicationName },
      'connection lost; reconnecting',
    );
    this.cancelTimer = (this.deps.schedule ?? realSchedule)(delay, () => void this.connect());
  }
}
