import type { EventRetention, EventStore } from './event-store';

export interface EventPrunerDeps {
  events: EventStore;
  retention: EventRetention;
  intervalMs: number;
  clock: () => Date;
  onError: (error: unknown) => void;
}

/** Keeps the log bounded: once at boot, then every interval. */
export class EventPruner {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: EventPrunerDeps) {}

  /** Resolves how many events were dropped. */
  prune(): Promise<number> {
    return this.deps.events.prune(this.deps.retention, this.deps.clock());
  }

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.prune().catch(this.deps.onError), this.deps.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
