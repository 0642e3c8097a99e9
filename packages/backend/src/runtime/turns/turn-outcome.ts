import type { TurnRecord } from '@kandev/protocol';
import { markSessionQuestionsStale } from '../parent-questions/parent-question-lifecycle';
import type { AgentGone, AgentSession, AgentSessionState } from '../sessions/agent-session';
import { isEnded } from '../sessions/session-lifecycle';
import type { Stores } from '../../platform/store/unit-of-work';
import { type EventContext, type EventPlan, planAgentGone, planTurnEnded } from './session-event-plan';

// Applies an event plan inside the caller's transaction. Shared by the session event handler, the
// drainer (a duplicate Prompt reply, a refused prompt) and the boot reconcile, so all of them record
// an outcome the same way, and only once (compare-and-set on the prompt and on the session state).

export interface LoadedSession {
  session: AgentSession;
  ctx: EventContext;
}

export async function loadEventContext(stores: Stores, sessionId: string): Promise<LoadedSession | undefined> {
  const session = await stores.sessions.findById(sessionId);
  if (session === undefined) return undefined;
  const dispatched = await stores.promptQueue.findDispatched(sessionId);
  return { session, ctx: { state: session.state, dispatchedPromptId: dispatched?.id ?? null } };
}

/** What applying a plan did: the session's new state (null: unchanged) and the prompt it finished. */
export interface Applied {
  state: AgentSessionState | null;
  finishedPromptId: string | undefined;
}

export async function applyPlan(stores: Stores, session: AgentSession, plan: EventPlan, now: string) {
  const applied: Applied = { state: null, finishedPromptId: undefined };
  if (plan.acpSessionId !== null) await stores.sessions.recordAcpSession(session.id, plan.acpSessionId, now);
  if (plan.prompt !== null && (await stores.promptQueue.finish(plan.prompt.id, session.id, plan.prompt.outcome, now))) {
    applied.finishedPromptId = plan.prompt.id;
  }
  if (plan.fact !== null) {
    const columns = plan.lastError === null ? {} : { lastError: plan.lastError };
    applied.state = await stores.sessions.advance(session, plan.fact, now, columns);
  }
  if (plan.warning !== null) await stores.sessions.recordWarning(session.id, plan.warning, now);
  // An ended session takes no answer: the parent question it waits on is stale, recorded with the end.
  if (applied.state !== null && isEnded(applied.state)) {
    await markSessionQuestionsStale(stores, session.id, 'session_ended', now);
  }
  return applied;
}

/** A turn ended (event, duplicate reply or boot). Resolves true when the session went idle: kick it. */
export async function applyTurnEnded(stores: Stores, sessionId: string, turn: TurnRecord, now: string) {
  const loaded = await loadEventContext(stores, sessionId);
  if (loaded === undefined) return false;
  const applied = await applyPlan(stores, loaded.session, planTurnEnded(turn, loaded.ctx), now);
  return applied.state === 'waiting_for_input';
}

/** The agent is gone (exited, or agentctl lost it): its prompt in flight fails, the session fails. */
export async function applyAgentGone(stores: Stores, sessionId: string, gone: AgentGone, now: string) {
  const loaded = await loadEventContext(stores, sessionId);
  if (loaded === undefined) return { state: null, finishedPromptId: undefined };
  return applyPlan(stores, loaded.session, planAgentGone(gone, loaded.ctx), now);
}
