import type { EventRetention } from './event-store';

/** The event log's bounds and the live streams' limits (docs/configuration.md, KANDEV_EVENT_*). */
export interface EventLogConfig {
  retention: EventRetention;
  /** Ended sessions' details (runtime/sessions/store/session-history.ts) are kept this long after they ended. */
  sessionDetailMaxAgeMs: number;
  /** The audit trail (audit-log.ts) keeps its entries this long, however soon the log drops the events. */
  auditMaxAgeMs: number;
  /** How often the retention is applied (also once at boot). */
  pruneIntervalMs: number;
  maxStreams: number;
  pingMs: number;
}

export const EVENT_LOG_DEFAULTS: EventLogConfig = {
  retention: { maxAgeMs: 7 * 24 * 3_600_000, maxRows: 100_000 },
  sessionDetailMaxAgeMs: 90 * 24 * 3_600_000,
  auditMaxAgeMs: 365 * 24 * 3_600_000,
  pruneIntervalMs: 3_600_000,
  maxStreams: 64,
  pingMs: 15_000,
};
