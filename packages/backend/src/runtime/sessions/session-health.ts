import type { AgentStatus } from '@kandev/protocol';
import type { AgentSessionState } from './agent-session';
import { isLive } from './session-lifecycle';

// Pure: the one word a board badge shows for a session, from what the backend knows.

/**
 * `failed`: the session failed (`last_error` says why). `stuck`: the backend holds it live but its
 * agentctl cannot be reached or its agent process has exited, so nothing will progress until it is
 * stopped, resumed or relaunched (only a view that asked agentctl can tell). `warning`: it works, but
 * `last_error` or `refresh_error` reports a problem. `ok`: none of these.
 */
export const SESSION_HEALTHS = ['ok', 'warning', 'stuck', 'failed'] as const;
export type SessionHealth = (typeof SESSION_HEALTHS)[number];

export interface HealthInput {
  state: AgentSessionState;
  lastError: string | null;
  refreshError: string | null;
  /** What agentctl said; undefined when it was not asked (a listing). */
  runtime?: { reachable: boolean; agentStatus: AgentStatus | null };
}

export function sessionHealth(input: HealthInput): SessionHealth {
  if (input.state === 'failed') return 'failed';
  const runtime = input.runtime;
  if (runtime !== undefined && isLive(input.state)) {
    if (!runtime.reachable || runtime.agentStatus === 'exited') return 'stuck';
  }
  return input.lastError !== null || input.refreshError !== null ? 'warning' : 'ok';
}
