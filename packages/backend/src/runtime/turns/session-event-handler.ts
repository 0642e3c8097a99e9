import type { SessionEvent } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { PromptKicker } from '../prompt-queue/drain-gate';
import type { SessionLanes } from '../sessions/session-lanes';
import type { RefreshScheduler } from '../provider-refresh/provider-reconciler';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentSession } from '../sessions/agent-session';
import { recordAgentExit, recordAgentNotice, recordToolCall } from './agent-output';
import { recordAgentMessage, recordPlan } from './agent-stream-output';
import { type EventPlan, planSessionEvent } from './session-event-plan';
import { type Applied, applyPlan, loadEventContext } from './turn-outcome';

/** Where the Attach client hands the session events agentctl sends (a fake in tests). */
export interface SessionEventSink {
  /** Queues the event on its session's lane (synchronously, so arrival order is kept); never rejects. */
  handle(event: SessionEvent, agentctlAddress: string): Promise<void>;
}

export interface SessionEventHandlerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  lanes: SessionLanes;
  prompts: PromptKicker;
  /** Catches up a session whose desired revision moved while its agent was starting. */
  refreshes: RefreshScheduler;
  logger: Logger;
  metrics?: Pick<BackendMetrics, 'agentExited' | 'turnEnded'>;
}

/**
 * Applies what a session's agent did to the backend's records, one event at a time per session and in
 * arrival order (the plan is pure: session-event-plan.ts): the ACP session id and readiness, turns
 * starting and ending (prompt and session state by compare-and-set, so a replayed or late event changes
 * nothing), the agent's text, plans, tool calls and notices in the conversation (a warning notice also
 * sets the session's last error), an agent that exited on its own. Streamed text that piles up
 * before its lane gets to it is written once (handleText).
 */
export class SessionEventHandler implements SessionEventSink {
  /** Per session: streamed text queued on its lane and not started yet, which later pieces of its run join. */
  private readonly waitingText = new Map<string, WaitingText>();

  constructor(private readonly deps: SessionEventHandlerDeps) {}

  handle(event: SessionEvent, agentctlAddress: string): Promise<void> {
    if (event.kind === 'agent_message' && event.segment > 0) return this.handleText(event, agentctlAddress);
    // Text arriving after this event must not join text queued before it: the order is kept.
    this.waitingText.delete(event.sessionId);
    return this.queue(event.sessionId, event.kind, () => this.apply(event, agentctlAddress));
  }

  /**
   * Pieces of one run of text that arrive while the first waits on its lane join it: one write and one
   * message.updated for everything that arrived in the meantime (a burst from the stream, or what piled
   * up behind a slow write), however small agentctl's pieces are; no timer.
   */
  private handleText(event: TextEvent, agentctlAddress: string): Promise<void> {
    const waiting = this.waitingText.get(event.sessionId);
    if (waiting !== undefined && waiting.agentctlAddress === agentctlAddress && sameRun(waiting.event, event)) {
      waiting.event = { ...waiting.event, text: waiting.event.text + event.text };
      return waiting.done;
    }
    const slot: WaitingText = { event, agentctlAddress, done: Promise.resolve() };
    this.waitingText.set(event.sessionId, slot);
    slot.done = this.queue(event.sessionId, event.kind, () => {
      // Started: what arrives from now on is written after it.
      if (this.waitingText.get(event.sessionId) === slot) this.waitingText.delete(event.sessionId);
      return this.apply(slot.event, agentctlAddress);
    });
    return slot.done;
  }

  private queue(sessionId: string, kind: SessionEvent['kind'], work: () => Promise<void>): Promise<void> {
    return this.deps.lanes
      .run(sessionId, work)
      .catch((err: unknown) => this.deps.logger.error({ err, sessionId, kind }, 'session event failed'));
  }

  private async apply(event: SessionEvent, agentctlAddress: string): Promise<void> {
    const log = this.deps.logger.child({ sessionId: event.sessionId, kind: event.kind, seq: event.seq });
    const now = this.deps.clock().toISOString();
    const outcome = await this.deps.uow.transaction(async (stores) => {
      const loaded = await loadEventContext(stores, event.sessionId);
      if (loaded === undefined) return 'unknown' as const;
      const { session, ctx } = loaded;
      if (session.agentctlAddress !== null && session.agentctlAddress !== agentctlAddress) return 'foreign' as const;
      const plan = planSessionEvent(event, ctx);
      const applied = await applyPlan(stores, session, plan, now);
      await recordOutput(stores, session, event, plan, ctx.dispatchedPromptId, now);
      return { session, plan, applied };
    });
    if (outcome === 'unknown') return log.warn('session event for an unknown session dropped');
    if (outcome === 'foreign') {
      return log.warn({ agentctlAddress }, 'session event from an agentctl that does not run the session dropped');
    }
    this.after(event, outcome.session, outcome.applied, outcome.plan.kick, log);
  }

  /** After the commit: logs, a catch-up refresh for an agent that became ready, the next drain. */
  private after(
    event: SessionEvent,
    session: { id: string; revision: number; appliedRevision: number },
    applied: Applied,
    kick: boolean,
    log: Logger,
  ): void {
    this.measure(event, applied);
    if (event.kind === 'agent_exited' && !event.expected) {
      const { exitCode, signal, reason } = event;
      log.warn(
        { exitCode, signal, reason, state: applied.state, failedPrompt: applied.finishedPromptId },
        'agent exited',
      );
    } else {
      log.debug({ state: applied.state }, 'session event applied');
    }
    if (event.kind === 'agent_notice') {
      const { code, level } = event;
      log[level === 'warning' ? 'warn' : 'info']({ code }, 'agent notice');
    }
    if (event.kind === 'agent_started' && applied.state !== null) {
      const { pid, loaded, modeId, systemPromptDelivery, mcpConnected } = event;
      log.info({ pid, loaded, modeId, systemPromptDelivery, mcpConnected }, 'agent ready');
      // A source batch committed while the agent started bumped the desired revision: push it now.
      if (session.revision > session.appliedRevision) this.deps.refreshes.schedule(session.id);
    }
    if (kick && applied.state === 'waiting_for_input') void this.deps.prompts.kick(session.id);
  }

  /**
   * Every exit of the session's agent (also one after its session ended: a stop); a turn only when
   * its end changed the prompt (a replayed end changes nothing).
   */
  private measure(event: SessionEvent, applied: Applied): void {
    const metrics = this.deps.metrics;
    if (metrics === undefined) return;
    if (event.kind === 'agent_exited') metrics.agentExited(event);
    if (event.kind === 'turn_ended' && applied.finishedPromptId !== undefined && event.turn.endedAt !== null) {
      const outcome = event.turn.status === 'completed' ? 'completed' : 'failed';
      metrics.turnEnded(outcome, event.turn.startedAt, event.turn.endedAt);
    }
  }
}

type TextEvent = Extract<SessionEvent, { kind: 'agent_message' }>;

interface WaitingText {
  event: TextEvent;
  agentctlAddress: string;
  done: Promise<void>;
}

function sameRun(a: TextEvent, b: TextEvent): boolean {
  return a.promptId === b.promptId && a.segment === b.segment;
}

/** The conversation entry the plan says the event adds (or, for streamed output, rewrites). */
async function recordOutput(
  stores: Stores,
  session: AgentSession,
  event: SessionEvent,
  plan: EventPlan,
  dispatchedPromptId: string | null,
  now: string,
): Promise<void> {
  if (plan.record === null) return;
  switch (event.kind) {
    case 'agent_message':
      return recordAgentMessage(stores, session, event, now);
    case 'tool_call':
      return recordToolCall(stores, session, event, now);
    case 'plan':
      return recordPlan(stores, session, event, now);
    case 'agent_notice':
      return recordAgentNotice(stores, session, event, now);
    case 'agent_exited':
      return recordAgentExit(stores, session, event, dispatchedPromptId ?? undefined, now);
    case 'agent_started':
    case 'turn_started':
    case 'turn_ended':
      return;
  }
}
