import type { SessionEvent, TurnRecord } from '@kandev/protocol';
import type { PromptOutcome } from '../prompt-queue/queued-prompt';
import type { AgentGone, AgentSessionState } from '../sessions/agent-session';
import { isEnded, type SessionFact } from '../sessions/session-lifecycle';
import { agentExitedError } from './agent-verdict';

// Pure: what a session event (or an outcome learned another way: a duplicate Prompt reply, the boot
// reconcile) does to the session's records. The caller applies the plan in one transaction, each
// write a compare-and-set, so a replayed or late event changes nothing.

/** What the backend knows about the session when the event is applied. */
export interface EventContext {
  state: AgentSessionState;
  /** The session's prompt in flight, if any. */
  dispatchedPromptId: string | null;
}

export interface EventPlan {
  /** Store the agent's ACP session id (agent_started). */
  acpSessionId: string | null;
  /** Finish this prompt (only if it is still in flight for the session). */
  prompt: { id: string; outcome: PromptOutcome } | null;
  /** The state change, with the last error it records. */
  fact: SessionFact | null;
  lastError: string | null;
  /** The session's last error, with no state change (an agent notice at level warning). */
  warning: string | null;
  /** The conversation entry the event adds (or, for streamed output, adds or rewrites). */
  record: 'agent_message' | 'tool_call' | 'plan' | 'agent_notice' | 'agent_exit' | null;
  /** Kick the queue once applied, if the session is then waiting for input. */
  kick: boolean;
}

const NOTHING: EventPlan = {
  acpSessionId: null,
  prompt: null,
  fact: null,
  lastError: null,
  warning: null,
  record: null,
  kick: false,
};

/** A completed turn may carry a warning (the agent had no kandev tools, say): the prompt keeps it. */
function outcomeOf(turn: TurnRecord): PromptOutcome {
  return turn.status === 'completed'
    ? { status: 'completed', stopReason: turn.stopReason, warning: turn.error }
    : { status: 'failed', error: turn.error ?? 'the turn failed' };
}

/**
 * A turn ended: its prompt finishes, and the session goes back to waiting for input when that prompt
 * was the one in flight (or nothing was: a turn the backend did not dispatch). A turn of an older
 * prompt (failed by a resume, say) changes nothing else.
 */
export function planTurnEnded(turn: TurnRecord, ctx: EventContext): EventPlan {
  if (turn.status === 'running') return NOTHING;
  const current = ctx.dispatchedPromptId === null || ctx.dispatchedPromptId === turn.promptId;
  return {
    ...NOTHING,
    prompt: { id: turn.promptId, outcome: outcomeOf(turn) },
    fact: current ? { kind: 'turn_finished' } : null,
    kick: current,
  };
}

/** The agent is gone: its prompt in flight fails; the session fails (completes on a clean idle exit). */
export function planAgentGone(gone: AgentGone, ctx: EventContext): EventPlan {
  const idleCleanExit = gone.kind === 'exited' && gone.cleanExit && ctx.dispatchedPromptId === null;
  return {
    ...NOTHING,
    prompt:
      ctx.dispatchedPromptId === null
        ? null
        : { id: ctx.dispatchedPromptId, outcome: { status: 'failed', error: gone.promptError } },
    fact: gone.kind === 'lost' ? { kind: 'lost' } : { kind: 'agent_exited', idleCleanExit },
    lastError: idleCleanExit ? null : gone.reason,
  };
}

export function planSessionEvent(event: SessionEvent, ctx: EventContext): EventPlan {
  switch (event.kind) {
    case 'agent_started':
      return {
        ...NOTHING,
        acpSessionId: event.acpSessionId.length > 0 ? event.acpSessionId : null,
        fact: { kind: 'agent_ready' },
        kick: true,
      };
    case 'turn_started':
      // Normally a no-op (the drainer set running when it dispatched); repairs a session that missed it.
      return event.promptId === ctx.dispatchedPromptId ? { ...NOTHING, fact: { kind: 'turn_started' } } : NOTHING;
    case 'agent_message':
      return { ...NOTHING, record: 'agent_message' };
    case 'tool_call':
      return { ...NOTHING, record: 'tool_call' };
    case 'plan':
      return { ...NOTHING, record: 'plan' };
    case 'agent_notice':
      // An ended session keeps the reason it ended with: a late notice is only recorded.
      return {
        ...NOTHING,
        record: 'agent_notice',
        warning: event.level === 'warning' && !isEnded(ctx.state) ? event.message : null,
      };
    case 'turn_ended':
      return planTurnEnded(event.turn, ctx);
    case 'agent_exited': {
      // agentctl stopped it (stop, resume, shutdown): whoever did set the state.
      if (event.expected) return NOTHING;
      const gone: AgentGone = {
        kind: 'exited',
        reason: event.reason,
        promptError: agentExitedError(event.reason),
        cleanExit: event.exitCode === 0,
      };
      return { ...planAgentGone(gone, ctx), record: 'agent_exit' };
    }
  }
}
