import { AppError } from '@kandev/protocol';
import type { Replicas } from './replicas';

/**
 * Several replicas: a launch or resume holds `launch:<session>` from before its row is written until
 * agentctl took the session, so neither another replica's boot reconcile nor its sweep of sessions a
 * dead replica left unstarted touches a session being started (it would fail it as never started, or
 * as lost). The starter renews the lease every renew interval while it starts, however long that takes;
 * a dead starter's lease is free at once where replicas keep presence (PostgreSQL), else within a TTL.
 * One process claims nothing: a start just runs.
 */

/** What starting a session needs of the replicas. */
export type StartClaims = Pick<Replicas, 'once'>;

function launchLeaseName(sessionId: string): string {
  return `launch:${sessionId}`;
}

/** Runs `start` holding the session's launch lease. `releaseAfter`: see OnceOptions. */
export async function whileStarting<T>(
  replicas: StartClaims,
  sessionId: string,
  start: () => Promise<T>,
  releaseAfter?: (release: () => Promise<void>) => void,
): Promise<T> {
  const outcome = await replicas.once(launchLeaseName(sessionId), start, { renewWhileHeld: true, releaseAfter });
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
  replicas: StartClaims,
  sessionId: string,
  steps: {
    prepare: () => Promise<P>;
    start: (prepared: P) => Promise<T>;
    releaseAfter: (release: () => Promise<void>) => void;
  },
): Promise<T> {
  const preparing = steps.prepare();
  preparing.catch(() => undefined); // awaited once the claim answered; until then, not unhandled
  return whileStarting(replicas, sessionId, async () => steps.start(await preparing), steps.releaseAfter);
}

/**
 * Runs `work` (the repair of a session not started yet, at boot or by the sweep) unless a replica is
 * starting it now; resolves whether it ran.
 */
export async function unlessStarting(
  replicas: StartClaims,
  sessionId: string,
  work: () => Promise<void>,
): Promise<boolean> {
  return (await replicas.once(launchLeaseName(sessionId), work)).ran;
}
