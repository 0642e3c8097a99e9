/**
 * Wakes live streams after events were committed. Only a wake-up: a stream always reads what is new
 * from the events table, so a missed or extra wake costs a read, never an event. The replica signals
 * (platform/cluster/replica-signals.ts) implement it: in process on SQLite, LISTEN/NOTIFY on PostgreSQL, where a
 * commit on any replica wakes the streams of every replica.
 */
export interface EventWakeups {
  wake(): void;
  subscribe(listener: () => void): () => void;
}
