import { AppError, isAppError, type LaunchConfig, mcpPathFor } from '@kandev/protocol';
import type { Agentctls } from '../agentctl/agentctls';
import type { AgentctlEndpoint, SessionPlacement, WorkspaceMount } from '../agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { BackendMetrics } from '../../platform/metrics/backend-metrics';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentSession } from '../sessions/agent-session';
import type { Acknowledged } from '../sessions/session-events';
import type { RefreshScheduler } from '../provider-refresh/provider-reconciler';

export interface SessionStarterDeps {
  uow: UnitOfWork;
  clock: () => Date;
  agentctls: Agentctls;
  refreshes: RefreshScheduler;
  orphans: { sweepSoon(): void };
  logger: Logger;
  metrics?: Pick<BackendMetrics, 'sessionStart'>;
}

export interface LaunchedSession {
  session: AgentSession;
  /** Carries the real MCP token (and agent env); never stored, shown only redacted. */
  config: LaunchConfig;
  mcpUrl: string;
}

/** Failures after which agentctl may still have run the CreateSession the backend gave up on. */
const AMBIGUOUS_FAILURES: ReadonlySet<string> = new Set(['deadline_exceeded', 'unavailable', 'internal']);

export function mcpUrlOf(endpoint: AgentctlEndpoint, sessionId: string): string {
  return `${endpoint.mcpBaseUrl}${mcpPathFor(sessionId)}`;
}

/**
 * Hands a launched (created, or placed: already starting on its agentctl) or resumed (starting) session
 * to agentctl: its executor provides the agentctl (the shared one, or the session's container), the
 * session goes starting on it, CreateSession. Without an agent the session then waits for input (an
 * MCP-only session); with one it stays starting until agent_started. A failure is recorded as failed.
 * Runs on the session's lane, so the agent's first events are applied after this.
 */
export class SessionStarter {
  constructor(private readonly deps: SessionStarterDeps) {}

  /** Timed by its outcome (the metrics): ok, or the code it failed with. */
  start(
    session: AgentSession,
    config: LaunchConfig,
    event: string,
    workspace?: WorkspaceMount,
    options: { placed?: boolean } = {},
  ): Promise<LaunchedSession> {
    const run = () => this.startTimed(session, config, event, workspace, options);
    return this.deps.metrics?.sessionStart(run, (err) => (isAppError(err) ? err.code : 'internal')) ?? run();
  }

  private async startTimed(
    session: AgentSession,
    config: LaunchConfig,
    event: string,
    workspace: WorkspaceMount | undefined,
    { placed = false }: { placed?: boolean },
  ): Promise<LaunchedSession> {
    const log = this.deps.logger.child({ sessionId: session.id, taskId: session.taskId });
    const now = () => this.deps.clock().toISOString();
    const sessions = this.deps.uow.read.sessions;
    const hasAgent = config.agent !== null;
    let endpoint: AgentctlEndpoint;
    let stored: AgentSession;
    try {
      const agentctl = await this.deps.agentctls.forLaunch(session, workspace);
      endpoint = agentctl.endpoint;
      // A placed launch's row says starting on this agentctl already (one transaction fewer).
      const marked = placed && samePlace(session, endpoint);
      if (!marked) await this.markStarting(session, endpoint, now());
      const created = await agentctl.client.createSession(config);
      const acknowledged = { revision: config.revision, providers: config.providers, toolNames: created.toolNames };
      stored = await this.recordAccepted(session, acknowledged, hasAgent, now());
    } catch (error) {
      const failure = isAppError(error) ? error : new AppError('unavailable', `agentctl failed: ${String(error)}`);
      await sessions.advanceCurrent(session.id, { kind: 'start_failed' }, now(), { lastError: failure.message });
      log.warn({ err: error }, 'session start failed');
      if (AMBIGUOUS_FAILURES.has(failure.code)) this.deps.orphans.sweepSoon();
      const message = `session ${session.id} could not start: ${failure.message}`;
      throw new AppError(failure.code, message, { session_id: session.id }, { cause: error });
    }
    log.info(
      {
        revision: config.revision,
        questionCapability: config.questionCapability,
        providers: config.providers,
        agent: hasAgent,
      },
      event,
    );
    // A source batch committed while CreateSession was in flight bumped the desired revision.
    if (stored.state === 'waiting_for_input' && stored.revision > config.revision) {
      this.deps.refreshes.schedule(session.id);
    }
    return { session: stored, config, mcpUrl: mcpUrlOf(endpoint, session.id) };
  }

  /**
   * agentctl took the config: its acknowledgement and the state that follows (waiting for input without
   * an agent; still starting until agent_started with one) in one transaction, the state changed from
   * starting (where markStarting or the launch left it) by compare-and-set. Resolves the row as stored.
   */
  private recordAccepted(
    session: AgentSession,
    acknowledged: Acknowledged,
    hasAgent: boolean,
    now: string,
  ): Promise<AgentSession> {
    return this.deps.uow.transaction(async ({ sessions }) => {
      const starting = { ...session, state: 'starting' as const };
      const accepted = { kind: 'accepted', hasAgent } as const;
      const stored =
        (await sessions.recordAccepted(starting, acknowledged, now, accepted)) ?? (await sessions.findById(session.id));
      return stored ?? session;
    });
  }

  /**
   * created -> starting (launch) or still starting (resume), on the agentctl about to take it; the state
   * and its event in one transaction.
   */
  private async markStarting(session: AgentSession, endpoint: AgentctlEndpoint, now: string): Promise<void> {
    const marked = await this.deps.uow.transaction(async ({ sessions }) =>
      session.state === 'created'
        ? (await sessions.advance(session, { kind: 'launching' }, now, { agentctl: endpoint })) !== null
        : sessions.recordStartingOn(session.id, endpoint, now),
    );
    if (!marked) throw new AppError('failed_precondition', `session ${session.id} was stopped before it started`);
  }
}

/** Whether the row already places the session on this agentctl (address, and replica when only one reaches it). */
function samePlace(session: SessionPlacement, endpoint: AgentctlEndpoint): boolean {
  return (
    session.agentctlAddress === endpoint.grpcAddress && (session.agentctlReplica ?? undefined) === endpoint.replica
  );
}
