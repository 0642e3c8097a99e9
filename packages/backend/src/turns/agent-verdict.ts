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
 * A failed Prompt call: `refused` when agentctl answered and delivered nothing (the prompt can wait
 * again); `ambiguous` when the call may have reached the agent (retry the same prompt id: Prompt is
 * idempotent per id, so a retry never delivers twice).
 */
export function promptFailureKind(code: ErrorCode): 'refused' | 'ambiguous' {
  return code === 'unavailable' || code === 'deadline_exceeded' || code === 'internal' ? 'ambiguous' : 'refused';
}

/** The error a prompt in flight fails with when its agent is gone. */
export function agentExitedError(reason: string): string {
  return `agent exited: ${reason}`;
}
