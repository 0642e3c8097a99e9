import type { Replicas } from '../../platform/cluster/replicas';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { ProviderPusher } from './provider-pusher';
import { type BackoffPolicy, retryDelayMs } from '../../platform/retry/retry-backoff';
import { isSettledLive } from '../sessions/session-lifecycle';

/** Asks for a session to be brought up to its desired revision later. */
export interface RefreshScheduler {
  schedule(sessionId: string): void;
}

/** A pending retry; cancel() before it fires drops it. */
export interface RetryTimer {
  cancel(): void;
}

/** Starts the timer of one retry (a real, unref'd timeout by default; tests step through fake ones). */
export type StartRetryTimer = (fire: () => void, delayMs: number) => RetryTimer;

const realTimer: StartRetryTimer = (fire, delayMs) => {
  const timer = setTimeout(fire, delayMs);
  timer.unref();
  return { cancel: () => clearTimeout(timer) };
};

export interface SessionReconcilerDeps {
  uow: UnitOfWork;
  pusher: ProviderPusher;
  /** maxAttempts 0 turns the retries off; any other value does not bound them (see schedule). */
  policy: BackoffPolicy;
  logger: Logger;
  random?: () => number;
  startTimer?: StartRetryTimer;
  /** A session is reconciled by the replica holding "reconcile:<id>" (others retry later). */
  replicas: Pick<Replicas, 'once'>;
}

type Verdict = 'done' | 'retry';

/**
 * Brings settled sessions (running or waiting for input) whose acknowledged revision is behind the desired one up to date (through
 * ProviderPusher.sync: ask agentctl, push when it is behind, record it when it is not, mark the
 * session failed when agentctl lost it, since only resume can issue a new token). A live session is
 * retried until it is in sync or ends, never given up on: the delay doubles up to the policy's cap
 * (with jitter), and at most one retry is pending per session; timers are unref'd.
 */
export class SessionReconciler implements RefreshScheduler {
  private readonly timers = new Map<string, RetryTimer>();
  private readonly attempts = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: SessionReconcilerDeps) {}

  schedule(sessionId: string): void {
    if (this.stopped || this.timers.has(sessionId) || this.deps.policy.maxAttempts === 0) return;
    const attempt = this.attempts.get(sessionId) ?? 0;
    // Capped: past the ceiling every retry waits about maxDelayMs, however many came before.
    const delayMs = retryDelayMs(Math.min(attempt, 32), this.deps.policy, this.deps.random);
    const timer = (this.deps.startTimer ?? realTimer)(() => {
      this.timers.delete(sessionId);
      void this.track(this.retry(sessionId));
    }, delayMs);
    this.timers.set(sessionId, timer);
    this.deps.logger.debug({ sessionId, attempt, delayMs }, 'provider refresh retry scheduled');
  }

  /** Brings one session up to date now rather than at its next retry (another replica asked). */
  reconcileSoon(sessionId: string): void {
    if (this.stopped) return;
    void this.track(this.retry(sessionId));
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
    for (const timer of this.timers.values()) timer.cancel();
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
    const outcome = await this.deps.replicas.once(`reconcile:${sessionId}`, () => this.reconcileNow(sessionId));
    // Another replica is on it: look again later (it is done by then, or that replica died).
    return outcome.ran ? outcome.value : 'retry';
  }

  private async reconcileNow(sessionId: string): Promise<Verdict> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || !isSettledLive(session.state)) return 'done';
    if (session.appliedRevision >= session.revision) return 'done';
    const target = { session, providers: session.launchConfig.providers, revision: session.revision };
    return (await this.deps.pusher.sync(target)).retry ? 'retry' : 'done';
  }
}
