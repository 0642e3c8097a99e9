import { isAppError } from '@kandev/protocol';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Sessions grouped as the sessions gauge shows them. */
export interface SessionCount {
  state: string;
  executor: string;
  count: number;
}

/** What the gauges read from the database on each scrape (the composition root passes the stores). */
export interface MetricsSources {
  sessionCounts(): Promise<SessionCount[]>;
  queuedPrompts(): Promise<number>;
}

const GRPC_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const WAIT_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

function outcomeOf(err: unknown): string {
  return isAppError(err) ? err.code : 'internal';
}

/**
 * The backend's instruments over its own Registry (never prom-client's global one, so two backends in
 * one test process never share series). Built once by createBackend and handed to what it measures.
 */
export function createBackendMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: MetricsSources | undefined;
  new Gauge({
    name: 'kandev_backend_sessions',
    help: 'Sessions by state and executor (read from the database on scrape)',
    labelNames: ['state', 'executor'] as const,
    registers,
    async collect() {
      this.reset();
      for (const row of (await sources?.sessionCounts()) ?? []) {
        this.set({ state: row.state, executor: row.executor }, row.count);
      }
    },
  });
  new Gauge({
    name: 'kandev_backend_prompt_queue_depth',
    help: 'Prompts queued and not yet dispatched to an agent (read from the database on scrape)',
    registers,
    async collect() {
      this.set((await sources?.queuedPrompts()) ?? 0);
    },
  });
  const promptWait = new Histogram({
    name: 'kandev_backend_prompt_wait_seconds',
    help: 'Time from a prompt being queued to its dispatch to the agent',
    buckets: WAIT_BUCKETS,
    registers,
  });
  const toolCalls = new Counter({
    name: 'kandev_backend_tool_calls_total',
    help: 'Tool calls from agents by tool and outcome (ok, or the refusal or error code)',
    labelNames: ['tool', 'outcome'] as const,
    registers,
  });
  const updates = new Counter({
    name: 'kandev_backend_update_providers_total',
    help: 'Provider updates sent to agentctl by outcome (applied, unchanged, stale, or the error code)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const updateSeconds = new Histogram({
    name: 'kandev_backend_update_providers_duration_seconds',
    help: 'Provider update round trip (its StreamProviderUpdates call) as the backend sees it',
    labelNames: ['outcome'] as const,
    buckets: GRPC_BUCKETS,
    registers,
  });
  const polls = new Counter({
    name: 'kandev_backend_gitlab_polls_total',
    help: 'Polls of one linked GitLab merge request by the MR poller',
    registers,
  });
  const pollErrors = new Counter({
    name: 'kandev_backend_gitlab_poll_errors_total',
    help: 'MR polls that failed (the read or recording it), by error code',
    labelNames: ['code'] as const,
    registers,
  });
  const githubPolls = new Counter({
    name: 'kandev_backend_github_polls_total',
    help: 'Polls of one linked GitHub pull request by the PR poller, by result (read, or not_modified: every read a 304)',
    labelNames: ['result'] as const,
    registers,
  });
  const githubPollErrors = new Counter({
    name: 'kandev_backend_github_poll_errors_total',
    help: 'PR polls that failed (the read or recording it), by error code',
    labelNames: ['code'] as const,
    registers,
  });

  return {
    registry,
    /** Where the gauges read on scrape; set once by the composition root. */
    readFrom(from: MetricsSources): void {
      sources = from;
    },
    /** A prompt queued at `queuedAt` was dispatched at `dispatchedAt` (ISO timestamps). */
    promptDispatched(queuedAt: string, dispatchedAt: string): void {
      promptWait.observe(Math.max(0, Date.parse(dispatchedAt) - Date.parse(queuedAt)) / 1000);
    },
    toolCall(tool: string, outcome: string): void {
      toolCalls.inc({ tool, outcome });
    },
    /**
     * Runs a StreamProviderUpdates call: each update counted by its outcome (or its error's code), and
     * the call's round trip observed once per update, as each push's round trip.
     */
    async updateProvidersBatch<T extends ({ ok: true; result: { outcome: string } } | { ok: false; error: unknown })[]>(
      updateCount: number,
      run: () => Promise<T>,
    ): Promise<T> {
      const started = process.hrtime.bigint();
      const observe = (outcome: string) => {
        updates.inc({ outcome });
        updateSeconds.observe({ outcome }, Number(process.hrtime.bigint() - started) / 1e9);
      };
      try {
        const outcomes = await run();
        for (const item of outcomes) observe(item.ok ? item.result.outcome : outcomeOf(item.error));
        return outcomes;
      } catch (err) {
        for (let i = 0; i < updateCount; i++) observe(outcomeOf(err));
        throw err;
      }
    },
    /** One poll of one linked MR (a read and what follows it). */
    gitlabPoll(): void {
      polls.inc();
    },
    gitlabPollFailed(error: unknown): void {
      pollErrors.inc({ code: outcomeOf(error) });
    },
    /** One poll of one linked PR that got an answer (`notModified`: only 304s, no rate limit spent). */
    githubPoll(notModified: boolean): void {
      githubPolls.inc({ result: notModified ? 'not_modified' : 'read' });
    },
    githubPollFailed(error: unknown): void {
      githubPollErrors.inc({ code: outcomeOf(error) });
    },
  };
}

export type BackendMetrics = ReturnType<typeof createBackendMetrics>;
