import { isAppError, type RuntimeSessionState } from '@kandev/protocol';
import { type StartClaims, unlessStarting } from '../../platform/cluster/launch-lease';
import type { Agentctls } from '../agentctl/agentctls';
import { HeldSessions } from '../agentctl/held-sessions';
import type { Logger } from '../../platform/logger/logger';
import type { PromptDrainer } from './prompt-drainer';
import type { AgentSession } from '../sessions/agent-session';
import { LIVE_SESSION_STATES } from '../sessions/session-lifecycle';
import type { SessionLanes } from '../sessions/session-lanes';
import { LOST_PROMPT_ERROR } from '../provider-refresh/provider-refresh';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import { type AgentVerdict, agentExitedError, judgeAgent, LOST_SESSION_REASON } from './agent-verdict';
import { applyAgentGone, applyTurnEnded } from './turn-outcome';
import { isPerSessionKind } from '../agentctl/executor';

export const NEVER_STARTED_REASON = 'the backend stopped before this session started; resume it';
export const START_NOT_LANDED_REASON = 'the launch or resume did not reach agentctl; resume it';

export interface BootReconcilerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Agentctls;
  lanes: SessionLanes;
  drainer: Pick<PromptDrainer, 'kick' | 'redeliver'>;
  logger: Logger;
  /** Sessions another replica is starting now are left to it (cluster/launch-lease). */
  replicas: StartClaims;
}

export interface BootReconcileSummary {
  /** Live sessions compared with agentctl. */
  checked: number;
  /** Sessions found failed (lost, agent exited, never started). */
  failed: string[];
  /** Prompts sent again with their id (dispatched, but agentctl never saw them). */
  redelivered: string[];
  /** MCP-only sessions agentctl no longer holds, left to the repair after boot, which registers them again. */
  restorable: string[];
  /** Why the pass stopped early (agentctl unreachable), if it did. */
  aborted?: string;
}

function emptySummary(): BootReconcileSummary {
  return { checked: 0, failed: [], redelivered: [], restorable: [] };
}

/**
 * After a backend (re)start: brings every live session's record in line with what agentctl holds.
 * Lost sessions and exited agents fail (with their prompt in flight); a prompt in flight whose turn
 * agentctl finished is settled, one it never saw is sent again with the same id (Prompt is idempotent,
 * so nothing is delivered twice); then every idle session's queue is kicked. Each session is handled on
 * its lane; every write is a compare-and-set, so running it twice changes nothing more.
 */
export class BootReconciler {
  constructor(private readonly deps: BootReconcilerDeps) {}

  async run(): Promise<BootReconcileSummary> {
    const summary = emptySummary();
    const sessions = this.deps.uow.read.sessions;
    for (const session of await sessions.listByStates(['created'])) await this.repairCreated(session.id, summary);
    // One ListSessions per agentctl for the whole pass (see held()).
    const snapshot = new HeldSessions();
    try {
      for (const session of await sessions.listByStates(LIVE_SESSION_STATES)) {
        if (session.state === 'starting') await this.repairStarting(session.id, summary);
        else await this.deps.lanes.run(session.id, () => this.reconcile(session.id, summary, snapshot));
      }
    } catch (error) {
      summary.aborted = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ err: error }, 'boot reconcile stopped: agentctl could not be asked');
      return summary;
    }
    // An MCP-only session's queue is held until a resume gives it an agent (decideDrain): not kicked.
    const idle = (await sessions.listByStates(['waiting_for_input'])).filter((s) => s.launchConfig.agent !== null);
    await Promise.all(idle.map((session) => this.deps.drainer.kick(session.id)));
    this.deps.logger.info({ ...summary, kicked: idle.length }, 'sessions reconciled with agentctl');
    return summary;
  }

  /**
   * A created session nobody is starting (no replica holds its launch lease: its launcher stopped or
   * died before sending it to agentctl) fails as never started; one being started is left alone.
   */
  async repairCreated(
    sessionId: string,
    summary: BootReconcileSummary = emptySummary(),
  ): Promise<BootReconcileSummary> {
    await unlessStarting(this.deps.replicas, sessionId, async () => {
      const failed = await this.deps.lanes.run(sessionId, () =>
        this.deps.uow.read.sessions.advanceCurrent(sessionId, { kind: 'start_failed' }, this.now(), {
          lastError: NEVER_STARTED_REASON,
        }),
      );
      if (failed !== null) summary.failed.push(sessionId);
    });
    return summary;
  }

  /**
   * A starting session nobody is starting now, against agentctl on its lane (the start landed: it is
   * recorded; it did not: the session fails); one being started is left alone. Throws when agentctl
   * cannot be asked.
   */
  async repairStarting(
    sessionId: string,
    summary: BootReconcileSummary = emptySummary(),
  ): Promise<BootReconcileSummary> {
    await unlessStarting(this.deps.replicas, sessionId, () =>
      this.deps.lanes.run(sessionId, () => this.reconcile(sessionId, summary)),
    );
    return summary;
  }

  /**
   * One live session against agentctl now, on its lane, as at boot (the turn sweep of several
   * replicas); then its queue is kicked if it idles. Throws when agentctl cannot be asked.
   */
  async reconcileOne(sessionId: string): Promise<BootReconcileSummary> {
    const summary = emptySummary();
    await this.deps.lanes.run(sessionId, () => this.reconcile(sessionId, summary));
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session?.state === 'waiting_for_input') await this.deps.drainer.kick(sessionId);
    return summary;
  }

  private now(): string {
    return this.deps.clock().toISOString();
  }

  /** One live session against agentctl's report; throws when agentctl cannot be asked (stops the pass). */
  private async reconcile(sessionId: string, summary: BootReconcileSummary, snapshot?: HeldSessions): Promise<void> {
    const session = await this.deps.uow.read.sessions.findById(sessionId);
    if (session === undefined || !(LIVE_SESSION_STATES as readonly string[]).includes(session.state)) return;
    // Another replica's own local agentctl: that replica reconciles it (or the replica-loss sweep ends it).
    if (this.deps.agentctls.servedElsewhere(session) !== undefined) return;
    summary.checked += 1;
    const held = await this.held(session, snapshot);
    const verdict = this.verdictFor(session, held);
    if (held === undefined && this.restorable(session)) {
      summary.restorable.push(sessionId);
      return;
    }
    const now = this.now();
    if (held === undefined || verdict.kind === 'lost' || verdict.kind === 'exited') {
      const reason = verdict.kind === 'lost' || verdict.kind === 'exited' ? verdict.reason : LOST_SESSION_REASON;
      const promptError = verdict.kind === 'exited' ? agentExitedError(reason) : LOST_PROMPT_ERROR;
      const kind = verdict.kind === 'exited' ? ('exited' as const) : ('lost' as const);
      const gone = { kind, reason, promptError, cleanExit: false };
      const outcome = await this.deps.uow.transaction((stores) => applyAgentGone(stores, sessionId, gone, now));
      if (outcome.state !== null) summary.failed.push(sessionId);
      return;
    }
    const resend = await this.deps.uow.transaction((stores) => this.settle(stores, session, held, verdict, now));
    if (resend === undefined) return;
    summary.redelivered.push(resend);
    const prompt = await this.deps.uow.read.promptQueue.findById(resend);
    if (prompt !== undefined) await this.deps.drainer.redeliver(session, prompt);
  }

  /**
   * An idle MCP-only session that an agentctl of its executor (one serving every session: not docker)
   * can take again. The repair that runs when that agentctl attaches after boot registers it with its
   * stored config, like after any agentctl loss (ADR: agentctl loss and repair).
   */
  private restorable(session: AgentSession): boolean {
    if (session.launchConfig.agent !== null || session.state !== 'waiting_for_input') return false;
    return this.deps.agentctls.up().some(({ endpoint }) => {
      const owner = this.deps.agentctls.ownerOf(endpoint.grpcAddress);
      return owner !== undefined && owner.name === session.executor && !isPerSessionKind(owner.kind);
    });
  }

  private verdictFor(session: AgentSession, held: RuntimeSessionState | undefined): AgentVerdict {
    // A starting session agentctl holds at an older revision: the launch or resume never landed.
    if (held !== undefined && session.state === 'starting' && held.config.revision < session.revision) {
      return { kind: 'lost', reason: START_NOT_LANDED_REASON };
    }
    return judgeAgent(held, session.launchConfig.agent !== null);
  }

  /**
   * Undefined: agentctl does not hold the session (or the agentctl it ran on is gone). Throws when it
   * could not be asked. With a snapshot (the boot pass), an MCP-only session that is not starting is
   * looked up in what its agentctl held when the pass began: only the backend changes such a session
   * in agentctl, and it serves nothing before the pass ends. An agent's turns move on their own, and a
   * start may land any moment: those are asked now.
   */
  private async held(session: AgentSession, snapshot?: HeldSessions): Promise<RuntimeSessionState | undefined> {
    try {
      const client = this.deps.agentctls.forSession(session);
      if (snapshot !== undefined && session.launchConfig.agent === null && session.state !== 'starting') {
        return await snapshot.lookup(client, session.id);
      }
      return await client.getSession(session.id);
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found') return undefined;
      throw error;
    }
  }

  /**
   * The session is alive in agentctl: finish a start the backend did not record, then settle the prompt
   * in flight from agentctl's turns. Resolves the id of a prompt to send again, if any.
   */
  private async settle(
    stores: Stores,
    session: AgentSession,
    held: RuntimeSessionState,
    verdict: AgentVerdict,
    now: string,
  ): Promise<string | undefined> {
    let current = session;
    if (session.state === 'starting' && verdict.kind !== 'starting') {
      const acknowledged = {
        revision: held.config.revision,
        providers: held.config.providers,
        toolNames: held.toolNames,
      };
      await stores.sessions.recordAccepted(session, acknowledged, now);
      const acp = held.agent.acpSessionId;
      if (acp !== null) await stores.sessions.recordAcpSession(session.id, acp, now);
      const hasAgent = session.launchConfig.agent !== null;
      const fact = hasAgent ? ({ kind: 'agent_ready' } as const) : ({ kind: 'accepted', hasAgent } as const);
      const state = await stores.sessions.advance(session, fact, now);
      if (state !== null) current = { ...session, state };
    }
    const dispatched = await stores.promptQueue.findDispatched(session.id);
    if (dispatched === undefined) {
      if (current.state === 'running' && verdict.kind === 'ready') {
        await stores.sessions.advance(current, { kind: 'turn_finished' }, now);
      }
      return undefined;
    }
    const turn = held.agent.turns.find((t) => t.promptId === dispatched.id);
    if (turn === undefined) return dispatched.id; // the crash window between the claim and the Prompt call
    if (turn.status === 'running') await stores.sessions.advance(current, { kind: 'turn_started' }, now);
    else await applyTurnEnded(stores, session.id, turn, now);
    return undefined;
  }
}
