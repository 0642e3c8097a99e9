import type { EventRetention, EventStore } from './event-store';

/** More retention than the event log's: each prunes what is older than the cutoff it is given. */
export interface ExtraRetention {
  maxAgeMs: number;
  /** Drops, in small batches, what is older than `cutoff` (ISO); resolves how many rows went. */
  prune(cutoff: string): Promise<number>;
}

export interface EventPrunerDeps {
  events: EventStore;
  retention: EventRetention;
  /** e.g. the details of sessions that ended long ago (runtime/sessions). */
  extra?: readonly ExtraRetention[];
  intervalMs: number;
  clock: () => Date;
  onError: (error: unknown) => void;
}

/**
 * Keeps the database bounded: once when the backend serves, then every interval, in the background
 * (a first prune of a large backlog must not hold the start). Runs never overlap; each prunes in small
 * batches with a yield between them, so requests are served meanwhile.
 */
export class EventPruner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly deps: EventPrunerDeps) {}

  /** Resolves how many rows were dropped (a run already under way is joined, not doubled). */
  prune(): Promise<number> {
    this.running ??= this.pruneAll().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pruneAll(): Promise<number> {
    const now = this.deps.clock();
    let dropped = await this.deps.events.prune(this.deps.retention, now);
    for (const extra of this.deps.extra ?? []) {
      dropped += await extra.prune(new Date(now.getTime() - extra.maxAgeMs).toISOString());
    }
    return dropped;
  }

  start(): void {
    if (this.timer !== undefined) return;
    const run = () => void this.prune().catch(this.deps.onError);
    this.timer = setInterval(run, this.deps.intervalMs);
    this.timer.unref();
    run();
  }

  /** Stops the interval; resolves once a run under way ended (the database may close after). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
