import { type ErrorCode, normalizeProviderSet, type Provider } from '@kandev/protocol';
import { sameProviderSet } from '../../catalogue/repositories/provider-set';

// Pure rules of live provider refreshes: when a session's desired revision moves, what agentctl's
// answer means for the backend's record, and how a batch's outcome is summarised.

/** `dispatched`: pushed, not waited for (the REST default; the acknowledgement follows on the session). */
export const SESSION_REFRESH_STATUSES = ['applied', 'failed', 'not_needed', 'dispatched'] as const;
export type SessionRefreshStatus = (typeof SESSION_REFRESH_STATUSES)[number];
/** A batch over several sessions can also be partly applied. */
export type RefreshStatus = SessionRefreshStatus | 'partial';

/** The outcome of one session's refresh, as the REST response shows it. */
export interface SessionRefreshResult {
  sessionId: string;
  status: SessionRefreshStatus;
  /** The session's desired revision after the batch. */
  revision: number;
  reason?: string;
}

export interface RefreshSummary {
  status: RefreshStatus;
  sessions: SessionRefreshResult[];
}

export interface RevisionedProviders {
  revision: number;
  providers: readonly Provider[];
}

export type RefreshDecision = { kind: 'not_needed' } | { kind: 'bump'; revision: number; providers: Provider[] };

/** One revision bump per effective change: only when the normalised provider set differs. */
export function decideProviderRefresh(desired: RevisionedProviders, derived: readonly Provider[]): RefreshDecision {
  const next = normalizeProviderSet(derived);
  if (sameProviderSet(normalizeProviderSet(desired.providers), next)) return { kind: 'not_needed' };
  return { kind: 'bump', revision: desired.revision + 1, providers: next };
}

/**
 * Sessions with nothing to push do not count; the rest decide applied, failed or partial. None failed
 * but some only dispatched (handed to the replica whose local agentctl holds them): dispatched.
 */
export function summarizeRefresh(sessions: readonly SessionRefreshResult[]): RefreshSummary {
  const pushed = sessions.filter((s) => s.status !== 'not_needed');
  const applied = pushed.filter((s) => s.status === 'applied').length;
  const failed = pushed.filter((s) => s.status === 'failed').length;
  let status: RefreshStatus = 'partial';
  if (pushed.length === 0) status = 'not_needed';
  else if (applied === pushed.length) status = 'applied';
  else if (failed === 0) status = 'dispatched';
  else if (failed === pushed.length) status = 'failed';
  return { status, sessions: [...sessions] };
}

/**
 * Where agentctl's revision stands against the backend's desired one: behind (push), current
 * (acknowledge), or ahead (agentctl holds a revision this backend never issued: only resume repairs).
 */
export function compareHeldRevision(held: number, desired: number): 'behind' | 'current' | 'ahead' {
  if (held < desired) return 'behind';
  return held === desired ? 'current' : 'ahead';
}

/**
 * What a failed push means: `lost` (agentctl does not hold the session: resume it), `conflict`
 * (agentctl refused this revision: resume rebuilds it), or `retry` (agentctl unreachable or slow).
 */
export function pushFailureKind(code: ErrorCode): 'lost' | 'conflict' | 'retry' {
  if (code === 'not_found') return 'lost';
  if (code === 'failed_precondition' || code === 'invalid_argument') return 'conflict';
  return 'retry';
}

export const LOST_SESSION_MESSAGE = 'agentctl lost the session; resume it';
/** The error a prompt in flight fails with when agentctl no longer holds its session. */
export const LOST_PROMPT_ERROR = 'agentctl no longer holds this session';

export function aheadMessage(held: number, desired: number): string {
  return `agentctl holds revision ${held}, newer than the backend's ${desired}; resume the session`;
}
