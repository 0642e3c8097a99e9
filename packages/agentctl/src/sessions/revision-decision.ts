import { AppError, decideRevision, type Revisioned } from '@kandev/protocol';

// CreateSession on the protocol's revision rule (decideRevision): a launch config below the one held
// is refused rather than ignored, since the caller means to (re)start the session with it.

/** What CreateSession does with a launch config. */
export type CreateDecision = 'create' | 'unchanged' | 'replace';

/** `content` of a config is its fingerprint (token by hash), see configFingerprint. */
export function decideCreate(sessionId: string, current: Revisioned | undefined, incoming: Revisioned): CreateDecision {
  if (current === undefined) return 'create';
  const outcome = decideRevision(sessionId, current, incoming);
  if (outcome === 'applied') return 'replace';
  if (outcome === 'unchanged') return 'unchanged';
  throw new AppError(
    'failed_precondition',
    `session ${sessionId} is at revision ${current.revision}; revision ${incoming.revision} is older`,
    { currentRevision: current.revision },
  );
}
