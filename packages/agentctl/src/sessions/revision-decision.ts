import { AppError, type Provider, type UpdateOutcome } from '@kandev/protocol';

// Pure revision rules. Revisions only move forward: nothing at or below the current revision can
// change a session, so a late or replayed push never regresses its tool list.

export interface RevisionedConfig {
  readonly revision: number;
  /**
   * Canonical content of the config (token by hash), see configFingerprint: asked for only when the
   * revisions are equal (a replayed CreateSession), as it serialises the whole config.
   */
  readonly fingerprint: () => string;
}

/** What CreateSession does with a launch config. */
export type CreateDecision = 'create' | 'unchanged' | 'replace';

export function decideCreate(
  sessionId: string,
  current: RevisionedConfig | undefined,
  incoming: RevisionedConfig,
): CreateDecision {
  if (current === undefined) return 'create';
  if (incoming.revision > current.revision) return 'replace';
  if (incoming.revision < current.revision) {
    throw new AppError(
      'failed_precondition',
      `session ${sessionId} is at revision ${current.revision}; revision ${incoming.revision} is older`,
      { currentRevision: current.revision },
    );
  }
  if (incoming.fingerprint() === current.fingerprint()) return 'unchanged';
  throw new AppError(
    'failed_precondition',
    `session ${sessionId} already holds a different config at revision ${current.revision}; send a higher revision`,
    { currentRevision: current.revision },
  );
}

export interface RevisionedProviders {
  readonly revision: number;
  /** A normalised provider set (canonical order). */
  readonly providers: readonly Provider[];
}

/** What UpdateProviders does: applied (forward), unchanged (idempotent replay) or stale (behind). */
export function decideProviderUpdate(
  sessionId: string,
  current: RevisionedProviders,
  incoming: RevisionedProviders,
): UpdateOutcome {
  if (incoming.revision > current.revision) return 'applied';
  if (incoming.revision < current.revision) return 'stale';
  if (incoming.providers.join(',') === current.providers.join(',')) return 'unchanged';
  throw new AppError(
    'failed_precondition',
    `session ${sessionId} already has different providers at revision ${current.revision}; send a higher revision`,
    { currentRevision: current.revision },
  );
}
