import { retryDelayMs } from '../retry/retry-backoff';
import { GitlabError } from '../gitlab/gitlab-client';
import type { Logger } from '../logger';
import type { BackendMetrics } from '../metrics/backend-metrics';
import type { UnitOfWork } from '../store/unit-of-work';
import type { WorkspaceGitlab } from './mr-evaluator';
import type { PollTarget } from './mr-lifecycle-store';
import type { MrUpdates } from './mr-updates';

export interface MrPollPolicy {
  intervalMs: number;
  /** Up to this much is added to each interval at random, so many backends do not poll in step. */
  jitterMs: number;
  /** At most this many MR reads at once. */
  concurrency: number;
  /** After a failure: base * 2^(failures - 1), capped; a 429's Retry-After wins when longer. */
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const REAL_TIMERS: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface MrPollerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  gitlab: WorkspaceGitlab;
  updates: MrUpdates;
  policy: MrPollPolicy;
  random?: () => number;
  timers?: Timers;
  /** Counts reads and failed reads. */
  metrics?: Pick<BackendMetrics, 'gitlabPoll' | 'gitlabPollFailed'>;
}

/**
 * One status read per poll for every linked MR whose task has a lifecycle prompt switch on. The read
 * updates the link and is emitted, reviewers included, as an 'MR updated' event. A failing link backs
 * off alone; its error is shown on the link.
 */
export class MrPoller {
  private readonly backoff = new Map<string, { until: number; failures: number }>();
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly deps: MrPollerDeps) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) (this.deps.timers ?? REAL_TIMERS).clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One poll of every due link; resolves when their reads and evaluations are done. */
  async pollOnce(): Promise<void> {
    const now = this.deps.clock().getTime();
    const targets = (await this.deps.uow.read.mrLifecycle.listPollable()).filter(
      (target) => (this.backoff.get(target.linkId)?.until ?? 0) <= now,
    );
    let next = 0;
    const worker = async () => {
      while (next < targets.length) {
        const target = targets[next]!;
        next += 1;
        await this.poll(target);
      }
    };
    const workers = Math.max(1, Math.min(this.deps.policy.concurrency, targets.length));
    await Promise.all(Array.from({ length: workers }, worker));
  }

  private schedule(): void {
    if (this.stopped) return;
    const { intervalMs, jitterMs } = this.deps.policy;
    const delay = intervalMs + Math.floor((this.deps.random ?? Math.random)() * jitterMs);
    this.timer = (this.deps.timers ?? REAL_TIMERS).setTimeout(() => {
      this.running = this.pollOnce()
        .catch((err: unknown) => this.deps.logger.error({ err }, 'MR poll failed'))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, delay);
  }

  private async poll(target: PollTarget): Promise<void> {
    const { uow, clock, logger } = this.deps;
    this.deps.metrics?.gitlabPoll();
    try {
      const client = await this.deps.gitlab(target.workspaceId);
      if (client === undefined) {
        throw new GitlabError('unauthorized', 'no GitLab credentials are configured for this workspace', null);
      }
      const observed = await client.mergeRequest(target.projectPath, target.iid);
      this.backoff.delete(target.linkId);
      await uow.read.mrLifecycle.recordObservation(target.linkId, observed, clock().toISOString());
      await this.deps.updates.emit({
        ...target,
        state: observed.state,
        headSha: observed.headSha,
        reviewers: { valid: true, usernames: observed.reviewers },
      });
    } catch (error) {
      this.deps.metrics?.gitlabPollFailed(error);
      const message = error instanceof GitlabError ? error.message : 'reading the merge request failed';
      const delayMs = this.backOff(target.linkId, error instanceof GitlabError ? error.retryAfterMs : null);
      logger.warn({ linkId: target.linkId, err: error, delayMs }, 'MR poll failed; backing off');
      await uow.read.mrLifecycle.recordPollError(target.linkId, message, clock().toISOString());
    }
  }

  private backOff(linkId: string, retryAfterMs: number | null): number {
    const { backoffBaseMs, backoffMaxMs } = this.deps.policy;
    const failures = (this.backoff.get(linkId)?.failures ?? 0) + 1;
    // The shared backoff, jitter included, so links that fail together (an outage) do not retry in step.
    const policy = { baseMs: backoffBaseMs, maxDelayMs: backoffMaxMs, maxAttempts: Number.POSITIVE_INFINITY };
    const exponential = retryDelayMs(failures - 1, policy, this.deps.random);
    const delayMs = Math.max(exponential, retryAfterMs ?? 0);
    this.backoff.set(linkId, { until: this.deps.clock().getTime() + delayMs, failures });
    return delayMs;
  }
}
