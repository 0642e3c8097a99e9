/**
 * Wakes live streams after events were committed. Only a wake-up: a stream always reads what is new
 * from the events table, so a missed or extra wake costs a read, never an event. A PostgreSQL
 * LISTEN/NOTIFY or a polling replica can take this one's place behind the same two methods.
 */
export interface EventWakeups {
  wake(): void;
  subscribe(listener: () => void): () => void;
}

/** The in-process wake-up: one backend process, one database. */
export class InProcessEventNotifier implements EventWakeups {
  private readonly listeners = new Set<() => void>();

  wake(): void {
    for (const listener of [...this.listeners]) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}
