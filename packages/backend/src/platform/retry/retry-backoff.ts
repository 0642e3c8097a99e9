/** Bounded retries with exponential backoff and jitter (the reconciler's schedule). */
export interface BackoffPolicy {
  /** Delay ceiling of the first retry. */
  baseMs: number;
  /** No retry waits longer than this. */
  maxDelayMs: number;
  /**
   * Prompt re-sends before the drainer gives up until the next trigger (0: never retry). The provider
   * reconciler is not bounded by it (it retries a live session until it is in sync); 0 turns it off.
   */
  maxAttempts: number;
}

/**
 * Delay before retry `attempt` (0-based): the ceiling doubles per attempt up to maxDelayMs, and the
 * delay is half the ceiling plus a random half ("equal jitter"), so sessions that failed together
 * do not retry together.
 */
export function retryDelayMs(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** attempt);
  const jitter = Math.min(1, Math.max(0, random()));
  return Math.round(ceiling / 2 + (ceiling / 2) * jitter);
}

export function canRetry(attempt: number, policy: BackoffPolicy): boolean {
  return attempt < policy.maxAttempts;
}
