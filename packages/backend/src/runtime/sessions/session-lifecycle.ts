import { AppError } from '@kandev/protocol';
import type { AgentSessionState } from './agent-session';

// Pure: the session turn model. Which state may follow which, and what each fact the backend learns
// (a launch, agentctl's answer, an agent or turn event, an operator action) does to a session's state.
// Stores write states only through `nextState` + a compare-and-set on the state they read.

/** Every allowed move. Ended sessions leave their state only through a resume (to starting). */
export const SESSION_TRANSITIONS = {
  created: ['starting', 'failed', 'cancelled'],
  starting: ['waiting_for_input', 'running', 'failed', 'cancelled'],
  running: ['waiting_for_input', 'failed', 'cancelled', 'completed', 'starting'],
  waiting_for_input: ['running', 'starting', 'failed', 'cancelled', 'completed'],
  completed: ['starting'],
  failed: ['starting'],
  cancelled: ['starting'],
} as const satisfies Record<AgentSessionState, readonly AgentSessionState[]>;

/** agentctl holds the session (or is being handed it) and its tools are served. */
export const LIVE_SESSION_STATES = ['starting', 'running', 'waiting_for_input'] as const;
/**
 * agentctl took the session's config and it still runs: live provider refreshes are pushed to these.
 * A starting session is caught up when it leaves starting (its launch or agent start may be in flight).
 */
export const SETTLED_LIVE_STATES = ['running', 'waiting_for_input'] as const;
/** Nothing runs; only a resume brings the session back. */
export const ENDED_SESSION_STATES = ['completed', 'failed', 'cancelled'] as const;

export function canTransition(from: AgentSessionState, to: AgentSessionState): boolean {
  return (SESSION_TRANSITIONS[from] as readonly AgentSessionState[]).includes(to);
}

export function isLive(state: AgentSessionState): boolean {
  return (LIVE_SESSION_STATES as readonly AgentSessionState[]).includes(state);
}

export function isSettledLive(state: AgentSessionState): boolean {
  return (SETTLED_LIVE_STATES as readonly AgentSessionState[]).includes(state);
}

export function isEnded(state: AgentSessionState): boolean {
  return (ENDED_SESSION_STATES as readonly AgentSessionState[]).includes(state);
}

/** A programming error, never an operator's: a caller asked for a move the table forbids. */
export function assertTransition(from: AgentSessionState, to: AgentSessionState): void {
  if (!canTransition(from, to)) throw new AppError('internal', `session state ${from} cannot become ${to}`);
}

/** What the backend learned about a session. */
export type SessionFact =
  /** The backend is about to send CreateSession for a new session. */
  | { kind: 'launching' }
  /** agentctl took the launch config; with an agent, the session waits for agent_started. */
  | { kind: 'accepted'; hasAgent: boolean }
  /** agent_started: the ACP handshake finished. */
  | { kind: 'agent_ready' }
  /** The drainer claimed a queued prompt for the session, or agentctl reported its turn running. */
  | { kind: 'turn_started' }
  /** A turn ended and the agent still runs. */
  | { kind: 'turn_finished' }
  /** The agent process ended on its own; `idleCleanExit`: exit code 0 outside a turn. */
  | { kind: 'agent_exited'; idleCleanExit: boolean }
  /** The launch or resume did not reach agentctl (or agentctl refused it). */
  | { kind: 'start_failed' }
  /** agentctl no longer holds the session or runs no agent for it. */
  | { kind: 'lost' }
  | { kind: 'stopped' }
  | { kind: 'resumed' };

export type SessionFactKind = SessionFact['kind'];

/** The state a fact moves the session to, or null when it changes nothing (including a refused resume). */
export function nextState(current: AgentSessionState, fact: SessionFact): AgentSessionState | null {
  const to = target(current, fact);
  return to === null || to === current || !canTransition(current, to) ? null : to;
}

function target(current: AgentSessionState, fact: SessionFact): AgentSessionState | null {
  switch (fact.kind) {
    case 'launching':
      return current === 'created' ? 'starting' : null;
    case 'accepted':
      return current === 'starting' && !fact.hasAgent ? 'waiting_for_input' : null;
    case 'agent_ready':
      return current === 'starting' ? 'waiting_for_input' : null;
    case 'turn_started':
      return current === 'waiting_for_input' ? 'running' : null;
    case 'turn_finished':
      return current === 'running' ? 'waiting_for_input' : null;
    case 'agent_exited':
      if (!isLive(current)) return null;
      return fact.idleCleanExit && current === 'waiting_for_input' ? 'completed' : 'failed';
    case 'start_failed':
      return current === 'created' || current === 'starting' ? 'failed' : null;
    case 'lost':
      return isLive(current) ? 'failed' : null;
    case 'stopped':
      return current === 'created' || isLive(current) ? 'cancelled' : null;
    case 'resumed':
      return current === 'created' || current === 'starting' ? null : 'starting';
  }
}

/** Whether a resume is allowed from this state (anything but created and starting). */
export function canResume(current: AgentSessionState): boolean {
  return nextState(current, { kind: 'resumed' }) !== null;
}
