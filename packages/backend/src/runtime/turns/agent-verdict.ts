import type { ErrorCode, RuntimeSessionState } from '@kandev/protocol';

// Pure: what agentctl's report about a session (GetSession) means for the backend's turn model.

export const LOST_SESSION_REASON = 'agentctl no longer holds this session; resume it';
export const NO_AGENT_REASON = 'agentctl runs no agent for this session; resume it';

export type AgentVerdict =
  /** agentctl does not hold the session, or runs no agent although the config names one. */
  | { kind: 'lost'; reason: string }
  | { kind: 'exited'; reason: string }
  | { kind: 'starting' }
  /** The agent takes a prompt (or the session has no agent at all: MCP only). */
  | { kind: 'ready' }
  | { kind: 'prompting'; promptId: string | null };

/** `held` undefined: agentctl answered NOT_FOUND. `hasAgent`: the backend's config names an agent. */
export function judgeAgent(held: RuntimeSessionState | undefined, hasAgent: boolean): AgentVerdict {
  if (held === undefined) return { kind: 'lost', reason: LOST_SESSION_REASON };
  const agent = held.agent;
  switch (agent.status) {
    case 'none':
      return hasAgent ? { kind: 'lost', reason: NO_AGENT_REASON } : { kind: 'ready' };
    case 'exited':
      return { kind: 'exited', reason: agent.exitReason ?? 'the agent exited' };
    case 'starting':
      return { kind: 'starting' };
    case 'ready':
      return { kind: 'ready' };
    case 'prompting':
      return { kind: 'prompting', promptId: agent.currentPromptId };
  }
}

/**
 * What a failed Prompt call means for the prompt:
 * - `rejected`: agentctl refused the prompt itself (its text or id) and would refuse it again every
 *   time: it ends `failed` with the reason and the queue moves on (a prompt that waits again would
 *   block every prompt behind it for good).
 * - `refused`: agentctl answered and delivered nothing because of the session's state (no agent, an
 *   exited agent, another turn): the prompt can wait again.
 * - `ambiguous`: the call may have reached the agent: re-send the same prompt id (Prompt is idempotent
 *   per id, so a re-send never delivers twice).
 * Exhaustive over the codes, so a new code does not compile until it is classified here.
 */
export type PromptFailureKind = 'rejected' | 'refused' | 'ambiguous';

const PROMPT_FAILURE_KINDS: Record<ErrorCode, PromptFailureKind> = {
  invalid_argument: 'rejected',
  not_found: 'refused', // the session is gone from agentctl: the probe fails the session, a resume re-sends
  already_exists: 'refused',
  failed_precondition: 'refused',
  unauthenticated: 'refused', // the control token, not the prompt: fixed, the same prompt goes through
  permission_denied: 'refused',
  unavailable: 'ambiguous',
  deadline_exceeded: 'ambiguous',
  internal: 'ambiguous',
};

export function promptFailureKind(code: ErrorCode): PromptFailureKind {
  return PROMPT_FAILURE_KINDS[code];
}

/** The error a prompt agentctl rejected for good is stored with (visible in REST). */
export function promptRejectedError(reason: string): string {
  return `agentctl rejected the prompt: ${reason}`;
}

/** The error a prompt in flight fails with when its agent is gone. */
export function agentExitedError(reason: string): string {
  return `agent exited: ${reason}`;
}
