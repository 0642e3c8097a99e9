import type { AgentSessionState } from '../sessions/agent-session';
import { bypassesGate, type QueuedPrompt } from './queued-prompt';

// Pure: whether a session's next queued prompt may be dispatched to its agent now.

export interface DrainInput {
  session: { state: AgentSessionState; hasAgent: boolean };
  /** A prompt of the session is dispatched and not finished. */
  inFlight: boolean;
  /** Why the gate holds the queue (a pending parent question, say), or null when it is open. */
  gateReason: string | null;
  /** The next prompt waiting for the session (a parent's answer first, then the oldest). */
  next: QueuedPrompt | undefined;
}

export type DrainDecision = { kind: 'dispatch'; prompt: QueuedPrompt } | { kind: 'hold'; reason: string };

/**
 * One turn at a time, only to an idle agent, a parent's answer first; ordinary prompts only through an
 * open gate (the answer is what a closed gate waits for, so it passes).
 */
export function decideDrain(input: DrainInput): DrainDecision {
  const { session, next } = input;
  if (session.state !== 'waiting_for_input') return { kind: 'hold', reason: `session is ${session.state}` };
  // An MCP-only session: its prompts wait for a resume with an agent (or are read by a client).
  if (!session.hasAgent) return { kind: 'hold', reason: 'the session has no agent' };
  if (input.inFlight) return { kind: 'hold', reason: 'a prompt is in flight' };
  if (input.gateReason !== null && (next === undefined || !bypassesGate(next))) {
    return { kind: 'hold', reason: input.gateReason };
  }
  if (next === undefined) return { kind: 'hold', reason: 'no prompt is queued' };
  return { kind: 'dispatch', prompt: next };
}
