import { AppError } from '@kandev/protocol';
import { type ClaimScope, withClaim } from './leases';

/**
 * Several replicas: a launch or resume holds `launch:<session>` from before its row is written until
 * agentctl took the session, so another replica's boot reconcile leaves alone a session being started
 * (it would fail it as never started, or as lost). The lease outlives any sane start; a dead starter's
 * lease is free at once where replicas keep presence (PostgreSQL), else once it expires.
 */
export const LAUNCH_LEASE_MS = 10 * 60_000;

function launchLeaseName(sessionId: string): string {
  return `launch:${sessionId}`;
}

/**
 * Runs `start` holding the session's launch lease (one replica: just runs it). `releaseAfter`: see
 * withClaim (a launch frees its lease without waiting for it).
 */
export async function whileStarting<T>(
  claims: ClaimScope | undefined,
  sessionId: string,
  start: () => Promise<T>,
  releaseAfter?: (release: () => Promise<void>) => void,
): Promise<T> {
  if (claims === undefined) return start();
  const outcome = await withClaim(claims.claims, launchLeaseName(sessionId), LAUNCH_LEASE_MS, start, releaseAfter);
  if (!outcome.ran) throw new AppError('failed_precondition', `session ${sessionId} is being started already`);
  return outcome.value;
}

/**
 * whileStarting for a session id just made, which nobody can hold yet: `prepare` runs alongside the
 * claim (two round trips at once), and `start` gets what it resolved. The lease is freed after `start`
 * without waiting for it: `releaseAfter` queues the release where the session's next start or stop
 * queues too (its lane), so none of those can run before it.
 */
export function whileLaunching<P, T>(
  claims: ClaimScope | undefined,
  sessionId: string,
  steps: {
    prepare: () => Promise<P>;
    start: (prepared: P) => Promise<T>;
    releaseAfter: (release: () => Promise<void>) => void;
  },
): Promise<T> {
  const preparing = steps.prepare();
  preparing.catch(() => undefined); // awaited once the claim answered; until then, not unhandled
  return whileStarting(claims, sessionId, async () => steps.start(await preparing), steps.releaseAfter);
}

/** Runs `work` (boot reconcile of a session not started yet) unless a replica is starting it now. */
export async function unlessStarting(
  claims: ClaimScope | undefined,
  sessionId: string,
  work: () => Promise<void>,
): Promise<void> {
  if (claims === undefined) return work();
  await withClaim(claims.claims, launchLeaseName(sessionId), claims.ttlMs, work);
}
