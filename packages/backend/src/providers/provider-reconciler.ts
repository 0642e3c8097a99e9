import type { Logger } from '../logger';
import type { UnitOfWork } from '../store/unit-of-work';
import type { ProviderPusher } from './provider-pusher';
import { type BackoffPolicy, canRetry, retryDelayMs } from '../retry/retry-backoff';
import { isSettledLive } from '../sessions/session-lifecycle';

/** Asks for a session to be brought up to its desired revision later. */
export interface RefreshScheduler {
  schedule(sessionId: string): void;
}

export interface SessionReconcilerDeps {
  uow: UnitOfWork;
  pusher: ProviderPusher;
  policy: BackoffPolicy;
  logger: Logger;
  random?: () => number;
}

type Verdict = 'done' | 'retry';

/**
 * Brings settled sessions (running or waiting for input) whose acknowledged revision is behind the desired one up to date (through
 * ProviderPusher.sync: ask agentctl, push when it is behind, record it when it is not, mark the
 * session failed when agentctl lost it, since only resume can issue a new token). Retries are
 * bounded, backed off with jitter, and at most one is pending per session; timers are unref'd.
 */
export class SessionReconciler implements RefreshScheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly attempts = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: SessionReconcilerDeps) {}

  schedule(sessionId: string): void {
    if (this.stopped || this.timers.has(sessionId)) return;
    const attempt = this.attempts.get(sessionId) ?? 0;
    if (!canRetry(attempt, this.deps.policy)) {
      this.attempts.delete(sessionId);
      this.deps.logger.warn({ sessionId, attempts: attempt }, 'giving up on the provider refresh until resume');
      return;
    }
    const delayMs = retryDelayMs(attempt, this.deps.policy, this.deps.random);
    const timer = setTimeout(() => {
      this.timers.delete(sessionId);
      void this.track(this.retry(sessionId));
    }, delayMs);
    timer.unref();
    this.timers.set(sessionId, timer);
    this.deps.logger.debug({ sessionId, attempt, delayMs }, 'provider refresh retry scheduled');
  }

  /** Whether a retry is waiting for its timer (at most one per session). */
  hasPendingRetry(sessionId: string): boolean {
    return this.timers.has(sessionId);
  }

  /** One pass over every settled session that is behind (at boot, once the executor is up). */
  async sweep(): Promise<void> {
    const behind = await this.deps.uow.read.sessions.listBehind();
    if (behind.length > 0) this.deps.logger.info({ sessions: behind.length }, 'reconciling sessions behind');
    await Promise.all(behind.map((session) => this.track(this.retry(session.id))));
  }

  /** Cancels pending retries and waits for the ones running. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return work;
  }

  private async retry(sessionId: string): Promise<void> {
    if (this.stopped) return;
    this.attempts.set(sessionId, (this.attempts.get(sessionId) ?? 0) + 1);
    let verdict: Verdict;
    try {
      verdict = await this.reconcile(sessionId);
    } catch (err) {
      this.deps.logger.error({ err, sessionId }, 'reconcile failed');
      verdict = 'retry';
    }
    if (verdict === 'retry') this.schedule(sessionId);
    else this.attempts.delete(sessionId);
  }

  /** One pass for a session still behind: the same probe-then-push a batch does. */
  private async reconcile(sessionId: string): Promise<Verdict> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || !isSettledLive(session.state)) return 'done';
    if (session.appliedRevision >= session.revision) return 'done';
    const target = { session, providers: session.launchConfig.providers, revision: session.revision };
    return (await this.deps.pusher.sync(target)).retry ? 'retry' : 'done';
  }
}
