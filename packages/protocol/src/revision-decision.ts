import { AppError } from './errors';
import { normalizeProviderSet, type Provider } from './provider';
import type { UpdateOutcome } from './update-outcome';

// Revisions only move forward: nothing at or below a session's current revision changes it, so a late
// or replayed push never regresses what agentctl holds. agentctl and every test fake decide with this.

/** A revision of something agentctl holds for a session (its launch config, its provider set). */
export interface Revisioned {
  readonly revision: number;
  /**
   * Canonical content (equal content, equal text). Asked for only when the revisions are equal: it may
   * serialise a whole config.
   */
  readonly content: () => string;
}

/**
 * What an incoming revision does to the one held: `applied` (higher), `unchanged` (equal, same content:
 * an idempotent replay) or `stale` (lower: nothing changes, whatever its content). The same revision
 * with other content is a contract violation, `failed_precondition`: the sender must use a new revision.
 */
export function decideRevision(sessionId: string, current: Revisioned, incoming: Revisioned): UpdateOutcome {
  if (incoming.revision > current.revision) return 'applied';
  if (incoming.revision < current.revision) return 'stale';
  if (incoming.content() === current.content()) return 'unchanged';
  throw new AppError(
    'failed_precondition',
    `session ${sessionId} already holds different content at revision ${current.revision}; send a higher revision`,
    { currentRevision: current.revision },
  );
}

/** A provider set at a revision; its content is the set itself (order and repeats do not matter). */
export function providerSetRevision(held: { revision: number; providers: readonly Provider[] }): Revisioned {
  return { revision: held.revision, content: () => normalizeProviderSet(held.providers).join(',') };
}
