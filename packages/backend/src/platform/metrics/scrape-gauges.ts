import type { Instruments } from '@kandev/metrics';

/** Sessions grouped as the sessions gauge shows them. */
export interface SessionCount {
  state: string;
  executor: string;
  count: number;
}

/**
 * What the gauges read on each scrape (the composition root passes the stores and services): each a
 * grouped or indexed read, never a scan on a hot path.
 */
export interface MetricsSources {
  /** Every session state and executor name: each pair is exported, 0 when none. */
  sessionStates: readonly string[];
  executors(): readonly string[];
  sessionCounts(): Promise<SessionCount[]>;
  queuedPrompts(): Promise<number>;
  /** The event log's oldest and newest ids (null: empty). */
  eventLog(): Promise<{ oldestId: number | null; newestId: number | null }>;
  openEventStreams(): number;
  /** Operator questions pending and not expired, and when the oldest of them was asked (ISO). */
  pendingQuestions(): Promise<{ count: number; oldestAskedAt: string | null }>;
  now(): Date;
}

/** Gauges read from the database and the live streams on each scrape. */
export function scrapeGauges(instruments: Instruments) {
  let sources: MetricsSources | undefined;
  instruments.gauge({
    name: 'kandev_backend_sessions',
    help: 'Sessions by state and executor (read from the database on scrape; every known pair, 0 when none)',
    labelNames: ['state', 'executor'] as const,
    async read(set) {
      if (sources === undefined) return;
      for (const executor of sources.executors()) {
        for (const state of sources.sessionStates) set({ state, executor }, 0);
      }
      for (const row of await sources.sessionCounts()) set({ state: row.state, executor: row.executor }, row.count);
    },
  });
  instruments.gauge({
    name: 'kandev_backend_prompt_queue_depth',
    help: 'Prompts queued and not yet dispatched to an agent (read from the database on scrape)',
    async read(set) {
      set({}, (await sources?.queuedPrompts()) ?? 0);
    },
  });
  // One read serves both gauges of the event log (a scrape collects every gauge at once).
  const eventLog = shared(async () => (await sources?.eventLog()) ?? { oldestId: null, newestId: null });
  instruments.gauge({
    name: 'kandev_backend_event_log_oldest_id',
    help: 'The oldest event id the log retains (0 when empty): a stream resuming before it gets a reset',
    async read(set) {
      set({}, (await eventLog()).oldestId ?? 0);
    },
  });
  instruments.gauge({
    name: 'kandev_backend_event_log_rows',
    help: 'Events the log retains: newest id - oldest id + 1 (pruning drops the oldest only; PostgreSQL may leave id gaps)',
    async read(set) {
      const { oldestId, newestId } = await eventLog();
      set({}, oldestId === null || newestId === null ? 0 : newestId - oldestId + 1);
    },
  });
  instruments.gauge({
    name: 'kandev_backend_event_streams',
    help: 'Open event streams (GET /api/events connections)',
    read(set) {
      set({}, sources?.openEventStreams() ?? 0);
    },
  });
  const questions = shared(async () => (await sources?.pendingQuestions()) ?? { count: 0, oldestAskedAt: null });
  instruments.gauge({
    name: 'kandev_backend_questions_pending',
    help: 'Operator questions pending (not answered, closed or expired), read from the database on scrape',
    async read(set) {
      set({}, (await questions()).count);
    },
  });
  instruments.gauge({
    name: 'kandev_backend_question_oldest_pending_age_seconds',
    help: 'Age of the oldest pending operator question (0 when none)',
    async read(set) {
      const oldest = (await questions()).oldestAskedAt;
      const now = sources?.now() ?? new Date();
      set({}, oldest === null ? 0 : Math.max(0, now.getTime() - Date.parse(oldest)) / 1000);
    },
  });

  return {
    /** Where the gauges read on scrape; set once by the composition root. */
    readFrom(from: MetricsSources): void {
      sources = from;
    },
  };
}

/** One read for every caller while it is in flight: the gauges of one scrape share it. */
function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
