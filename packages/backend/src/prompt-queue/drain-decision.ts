import type { AgentSessionState } from '../sessions/agent-session';
import type { QueuedPrompt } from './queued-prompt';

// Pure: whether a session's next queued prompt may be dispatched to its agent now.

export interface DrainInput {
  session: { state: AgentSessionState; hasAgent: boolean };
  /** A prompt of the session is dispatched and not finished. */
  inFlight: boolean;
  /** Why the gate holds the queue (a pending parent question, say), or null when it is open. */
  gateReason: string | null;
  /** The oldest prompt waiting for the session. */
  next: QueuedPrompt | undefined;
}

export type DrainDecision = { kind: 'dispatch'; prompt: QueuedPrompt } | { kind: 'hold'; reason: string };

/** One turn at a time, only to an idle agent, only through an open gate, oldest prompt first. */
export function decideDrain(input: DrainInput): DrainDecision {
  const { session } = input;
  if (session.state !== 'waiting_for_input') return { kind: 'hold', reason: `session is ${session.state}` };
  // An MCP-only session: its prompts wait for a resume with an agent (or are read by a client).
  if (!session.hasAgent) return { kind: 'hold', reason: 'the session has no agent' };
  if (input.inFlight) return { kind: 'hold', reason: 'a prompt is in flight' };
  if (input.gateReason !== null) return { kind: 'hold', reason: input.gateReason };
  if (input.next === undefined) return { kind: 'hold', reason: 'no prompt is queued' };
  return { kind: 'dispatch', prompt: input.next };
}
