import type { Replicas } from '../../platform/cluster/replicas';
import { retryDelayMs } from '../../platform/retry/retry-backoff';
import type { Logger } from '../../platform/logger/logger';

// The scheduling both lifecycle pollers share (GitLab MRs, GitHub PRs): one poll every interval plus
// jitter, never two at once, at most `concurrency` link reads in parallel, and a per-link backoff after
// a failure (exponential with jitter; a provider's own wait, e.g. Retry-After, wins when longer).

export interface LinkPollPolicy {
  intervalMs: number;
  /** Up to this much is added to each interval at random, so many backends do not poll in step. */
  jitterMs: number;
  /** At most this many link reads at once. */
  concurrency: number;
  /** After a failure: base * 2^(failures - 1), capped; the provider's requested wait wins when longer. */
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

export interface LinkPollerDeps<T extends { linkId: string }> {
  clock: () => Date;
  logger: Logger;
  policy: LinkPollPolicy;
  /** What to poll now (the links whose switches ask for it). */
  listTargets: () => Promise<T[]>;
  /** One read of a link; a throw is a failure that backs the link off. */
  poll: (target: T) => Promise<void>;
  /** The wait the provider asked for with this failure (ms from `nowMs`), if any. */
  requestedWaitMs: (error: unknown, nowMs: number) => number | null;
  /** Records a failure (on the link) once its backoff is known. */
  onFailure: (target: T, error: unknown, delayMs: number) => Promise<void>;
  random?: () => number;
  timers?: Timers;
  /** What the log line calls a failed whole poll. */
  name: string;
  /**
   * Each link is polled by the replica that claims it (lease "<name>:<link id>" for one interval; its
   * holder renews it at its next poll), so a transition is read, and prompted, once across replicas.
   */
  replicas: Pick<Replicas, 'claimMany'>;
}

export class LinkPoller<T extends { linkId: string }> {
  private readonly backoff = new Map<string, { until: number; failures: number }>();
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(private readonly deps: LinkPollerDeps<T>) {}

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

  /** One poll of every due link; resolves when their reads (and what each read triggers) are done. */
  async pollOnce(): Promise<void> {
    const now = this.deps.clock().getTime();
    const due = (await this.deps.listTargets()).filter(
      (target) => (this.backoff.get(target.linkId)?.until ?? 0) <= now,
    );
    const targets = await this.claimed(due);
    let next = 0;
    const worker = async () => {
      while (next < targets.length) {
        const target = targets[next]!;
        next += 1;
        await this.pollOne(target);
      }
    };
    const workers = Math.max(1, Math.min(this.deps.policy.concurrency, targets.length));
    await Promise.all(Array.from({ length: workers }, worker));
  }

  /** The due links this replica holds (all of them in one process). */
  private async claimed(due: T[]): Promise<T[]> {
    if (due.length === 0) return due;
    const leaseOf = (target: T) => `${this.deps.name}:${target.linkId}`;
    const held = await this.deps.replicas.claimMany(due.map(leaseOf), this.deps.policy.intervalMs);
    return due.filter((target) => held.has(leaseOf(target)));
  }

  private schedule(): void {
    if (this.stopped) return;
    const { intervalMs, jitterMs } = this.deps.policy;
    const delay = intervalMs + Math.floor((this.deps.random ?? Math.random)() * jitterMs);
    this.timer = (this.deps.timers ?? REAL_TIMERS).setTimeout(() => {
      this.running = this.pollOnce()
        .catch((err: unknown) => this.deps.logger.error({ err }, `${this.deps.name} failed`))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, delay);
  }

  private async pollOne(target: T): Promise<void> {
    try {
      await this.deps.poll(target);
      this.backoff.delete(target.linkId);
    } catch (error) {
      const now = this.deps.clock().getTime();
      const delayMs = this.backOff(target.linkId, this.deps.requestedWaitMs(error, now), now);
      await this.deps.onFailure(target, error, delayMs);
    }
  }

  private backOff(linkId: string, requestedMs: number | null, now: number): number {
    const { backoffBaseMs, backoffMaxMs } = this.deps.policy;
    const failures = (this.backoff.get(linkId)?.failures ?? 0) + 1;
    // The shared backoff, jitter included, so links that fail together (an outage) do not retry in step.
    const policy = { baseMs: backoffBaseMs, maxDelayMs: backoffMaxMs, maxAttempts: Number.POSITIVE_INFINITY };
    const exponential = retryDelayMs(failures - 1, policy, this.deps.random);
    const delayMs = Math.max(exponential, requestedMs ?? 0);
    this.backoff.set(linkId, { until: now + delayMs, failures });
    return delayMs;
  }
}
