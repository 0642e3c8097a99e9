import { AppError, type LaunchConfig, redactLaunchConfig, sha256Hex } from '@kandev/protocol';
import type { TurnCancellation } from '../agentctl/agentctl-client';
import { unknownExecutor } from '../agentctl/agentctl-directory';
import { type Agentctls, servedByAnotherReplica } from '../agentctl/agentctls';
import type { Logger } from '../../platform/logger/logger';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentSession, LaunchSessionBody } from '../sessions/agent-session';
import { loadLaunchConfig } from '../launch-config/launch-config-loader';
import { generateMcpToken } from '../launch-config/mcp-token';
import type { RuntimeSessionControl } from './runtime-session-control';
import { runtimeReport } from './runtime-report';
import { canResume, isEnded, isLive } from '../sessions/session-lifecycle';
import type { SessionLanes } from '../sessions/session-lanes';
import type { RefreshScheduler } from '../provider-refresh/provider-reconciler';
import { type LaunchedSession, SessionStarter, type SessionStarterDeps } from './session-starter';
import { type StartClaims, whileLaunching, whileStarting } from '../../platform/cluster/launch-lease';
import { recordSessionStopped } from './session-stop';
import type { RuntimeReport } from './session-view';
import { type ListSessionsQuery, listSessions } from './session-list';
import type { Page } from '../../platform/store/page-cursor';
import type { TaskWorkspaces } from '../task-workspaces/task-workspaces';
import { cleanupArchivedWorkspace, prepareSessionWorkspace } from './session-workspace';
import type { AgentctlEndpoint } from '../agentctl/executor';

export type { LaunchedSession } from './session-starter';

/** The error a prompt in flight fails with when its session is resumed (agentctl restarts the agent). */
export const INTERRUPTED_BY_RESUME = 'interrupted by resume';

export interface SessionServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  /** Every executor's agentctls: a launch may name its executor. */
  agentctls: Agentctls;
  /** Catches up a session whose desired revision moved while its launch or resume was in flight. */
  refreshes: RefreshScheduler;
  /** Cleans up a CreateSession (or StopSession) agentctl may still apply after the backend gave up on it. */
  orphans: { sweepSoon(): void };
  lanes: SessionLanes;
  runtimeSessions: RuntimeSessionControl;
  /** Ends the pending questions of stopped sessions (their held calls return). */
  questions: { endForSessions(sessionIds: readonly string[]): Promise<void> };
  /** task.archived with the task's view, in the archive's transaction (TaskService.recordEventWithin). */
  recordArchived: (stores: Stores, taskId: string, now: string) => Promise<void>;
  /** Each task's workspace, the agent's cwd (undefined: none, the agent runs where agentctl does; tests only). */
  workspaces?: TaskWorkspaces;
  /** A start holds the session's launch lease (cluster/launch-lease). */
  replicas: StartClaims;
  logger: Logger;
  /** Session starts, timed (SessionStarter). */
  metrics?: SessionStarterDeps['metrics'];
}

/** Launch, resume, stop and inspect sessions; each change runs on the session's lane. */
export class SessionService {
  private readonly starter: SessionStarter;

  constructor(private readonly deps: SessionServiceDeps) {
    this.starter = new SessionStarter(deps);
  }

  /**
   * POST /api/sessions/:id/relaunch: a new session for the ended session's task, launched as it was
   * (its executor, surface and title ownership; the task's agent profile, read as at any launch). The
   * old session and its prompts stay as they are. Refused (409) while the session has not ended (stop
   * or resume it instead) and while another session of the task is live or not yet started: one agent
   * works a task at a time. Relaunches of one session are serialised on its lane.
   */
  relaunch(sessionId: string): Promise<LaunchedSession & { relaunchedFrom: string }> {
    return this.deps.lanes.run(sessionId, async () => {
      const old = await this.require(sessionId, this.deps.uow.read.sessions);
      if (!isEnded(old.state)) {
        throw new AppError(
          'failed_precondition',
          `session ${sessionId} is ${old.state}; relaunch an ended session (stop it first, or resume it)`,
          { session_id: sessionId, state: old.state },
        );
      }
      const running = (await this.deps.uow.read.sessions.listByTask(old.taskId)).find(
        (session) => session.state === 'created' || isLive(session.state),
      );
      if (running !== undefined) {
        throw new AppError(
          'failed_precondition',
          `task ${old.taskId} already has session ${running.id} (${running.state}); stop it before relaunching`,
          { session_id: running.id, state: running.state },
        );
      }
      const launched = await this.launch(old.taskId, {
        executor: old.executor,
        surface: old.surface,
        owns_task_title: old.launchConfig.ownsTaskTitle,
      });
      this.deps.logger.info({ sessionId: launched.session.id, relaunchedFrom: sessionId }, 'session relaunched');
      return { ...launched, relaunchedFrom: sessionId };
    });
  }

  /** Builds the launch config from one consistent read, persists the session (created), starts it. */
  async launch(taskId: string, body: LaunchSessionBody): Promise<LaunchedSession> {
    const executor = this.executorFor(body.executor);
    const mcpToken = generateMcpToken();
    const sessionId = newId();
    const prepare = async () => {
      const task = await this.deps.uow.read.tasks.findById(taskId);
      return prepareSessionWorkspace(this.deps.workspaces, this.deps.agentctls, task, executor);
    };
    const releaseAfter = (release: () => Promise<void>) => void this.deps.lanes.run(sessionId, release);
    return whileLaunching(this.deps.replicas, sessionId, {
      prepare,
      releaseAfter,
      start: async (workspace) => {
        // The local agentctl, when up: the row is written starting on it (created then starting, at once).
        const placed = this.deps.agentctls.placementNow(executor);
        const { session, config } = await this.deps.uow.transaction(async (stores) => {
          const config = await loadLaunchConfig(stores, {
            taskId,
            sessionId,
            surface: body.surface,
            ownsTaskTitle: body.owns_task_title,
            revision: 1,
            mcpToken,
            resumeAcpSessionId: null,
            agentCwd: workspace.agentCwd,
          });
          const session = this.newSession(config, mcpToken, executor, placed);
          if (placed === undefined) await stores.sessions.insert(session);
          else await stores.sessions.insertPlaced(session);
          return { session, config };
        });
        return this.deps.lanes.run(session.id, () =>
          this.starter.start(session, config, 'session launched', workspace.mount, { placed: placed !== undefined }),
        );
      },
    });
  }

  /**
   * Rebuilds the whole config from the database exactly as a launch does, at the next revision, with a
   * fresh MCP token and the agent's ACP session to continue; the prompt in flight (if any) fails and
   * the queue is kept. agentctl replaces the session and restarts its agent; once it is ready the queue
   * drains.
   */
  resume(sessionId: string): Promise<LaunchedSession> {
    return this.deps.lanes.run(sessionId, () =>
      whileStarting(this.deps.replicas, sessionId, async () => {
        const mcpToken = generateMcpToken();
        const row = await this.require(sessionId, this.deps.uow.read.sessions);
        const { workspaces, agentctls } = this.deps;
        const task = await this.deps.uow.read.tasks.findById(row.taskId);
        const workspace = await prepareSessionWorkspace(workspaces, agentctls, task, row.executor);
        const now = this.deps.clock().toISOString();
        const { session, config } = await this.deps.uow.transaction((stores) =>
          this.replaceForResume(stores, sessionId, { mcpToken, agentCwd: workspace.agentCwd, now }),
        );
        return this.starter.start(session, config, 'session resumed', workspace.mount);
      }),
    );
  }

  /** In resume's transaction: the row replaced by the next revision's config (starting, fresh token). */
  private async replaceForResume(
    stores: Stores,
    sessionId: string,
    { mcpToken, agentCwd, now }: { mcpToken: string; agentCwd: string | null; now: string },
  ): Promise<{ session: AgentSession; config: LaunchConfig }> {
    const existing = await this.require(sessionId, stores.sessions);
    if (!canResume(existing.state)) {
      throw new AppError('failed_precondition', `session ${sessionId} is ${existing.state}; resume it once it ran`);
    }
    const config = await loadLaunchConfig(stores, {
      taskId: existing.taskId,
      sessionId,
      surface: existing.surface,
      ownsTaskTitle: existing.launchConfig.ownsTaskTitle,
      revision: existing.revision + 1,
      mcpToken,
      resumeAcpSessionId: existing.acpSessionId,
      agentCwd,
    });
    const mcpTokenHash = sha256Hex(mcpToken);
    await stores.promptQueue.failDispatched(sessionId, INTERRUPTED_BY_RESUME, now);
    if (!(await stores.sessions.replaceForResume(existing, { config, mcpTokenHash, now }))) {
      throw new AppError('failed_precondition', `session ${sessionId} changed while resuming; try again`);
    }
    const session: AgentSession = {
      ...existing,
      state: 'starting',
      revision: config.revision,
      launchConfig: redactLaunchConfig(config),
      mcpTokenHash,
      updatedAt: now,
    };
    return { session, config };
  }

  async get(id: string): Promise<{ session: AgentSession; runtime: RuntimeReport }> {
    const session = await this.require(id, this.deps.uow.read.sessions);
    return { session, runtime: await runtimeReport(this.deps.agentctls, session) };
  }

  /** One page of sessions matching the filters (rows only; agentctl is not asked). */
  list(query: ListSessionsQuery, workspaceIds: readonly string[] | null = null): Promise<Page<AgentSession>> {
    return listSessions(this.deps.uow.read, query, undefined, workspaceIds);
  }

  /** One page of the task's sessions; 404 for an unknown task. */
  listForTask(taskId: string, query: Omit<ListSessionsQuery, 'task_id'>): Promise<Page<AgentSession>> {
    return this.deps.uow.transaction(async (stores) => {
      if ((await stores.tasks.findById(taskId)) === undefined) {
        throw new AppError('not_found', `task ${taskId} not found`);
      }
      return listSessions(stores, { ...query, task_id: taskId }, 'created_asc');
    });
  }

  /**
   * DELETE /api/tasks/:id: archives the task (no new session may launch on it), then stops each of its
   * sessions that has not ended, the way POST /api/sessions/:id/stop does. Idempotent: an archived task
   * stays archived (its first archived_at) and only sessions still running are stopped again.
   */
  async archiveTask(taskId: string): Promise<void> {
    const now = this.deps.clock().toISOString();
    const sessions = await this.deps.uow.transaction(async (stores) => {
      if ((await stores.tasks.findById(taskId)) === undefined) {
        throw new AppError('not_found', `task ${taskId} not found`);
      }
      if (await stores.tasks.archive(taskId, now)) await this.deps.recordArchived(stores, taskId, now);
      return stores.sessions.listByTask(taskId);
    });
    for (const session of sessions) {
      if (session.state === 'created' || isLive(session.state)) await this.stop(session.id);
    }
    await cleanupArchivedWorkspace(this.deps.workspaces, taskId, this.deps.logger);
  }

  /**
   * StopSession on agentctl (its agent's process group is killed), then the session is cancelled and
   * its prompt in flight fails; queued prompts stay (a resume drains them). An ended session is only
   * asked to stop again in agentctl (idempotent), its state kept.
   */
  stop(id: string): Promise<{ session: AgentSession; runtime: RuntimeReport }> {
    return this.deps.lanes.run(id, async () => {
      const session = await this.require(id, this.deps.uow.read.sessions);
      const outcome = await this.deps.runtimeSessions.stop(session);
      if (outcome.status === 'failed') {
        this.deps.logger.warn({ sessionId: id, reason: outcome.reason }, 'StopSession failed; sweeping later');
        this.deps.orphans.sweepSoon();
      }
      const now = this.deps.clock().toISOString();
      const stopped = await this.deps.uow.transaction((stores) => recordSessionStopped(stores, id, now));
      if (stopped) await this.deps.questions.endForSessions([id]);
      // Recorded ended first: the replica told then finds the row it must act on.
      if (outcome.status === 'forwarded') this.deps.agentctls.forward(session);
      this.deps.logger.info({ sessionId: id, runtime: outcome.status, stopped }, 'session stopped');
      return this.get(id);
    });
  }

  /**
   * CancelTurn on agentctl; the turn then ends (completed, stop reason cancelled) and the queue moves on.
   * A live session with no turn running answers `cancelled: false` (the turn may have ended as the
   * operator asked: nothing is wrong); an MCP-only session runs no turns, so that is its answer without
   * asking agentctl. A session that is not live (not yet started, or ended) is refused.
   */
  async cancelTurn(id: string): Promise<TurnCancellation> {
    const session = await this.require(id, this.deps.uow.read.sessions);
    if (!isLive(session.state)) {
      throw new AppError('failed_precondition', `session ${id} is ${session.state}; no turn runs`);
    }
    if (session.launchConfig.agent === null) return { cancelled: false, promptId: null };
    const elsewhere = this.deps.agentctls.servedElsewhere(session);
    if (elsewhere !== undefined) throw servedByAnotherReplica(id, elsewhere);
    const agentctl = this.deps.agentctls.find(session);
    if (agentctl === undefined) throw new AppError('unavailable', 'agentctl is not running');
    const cancellation = await agentctl.client.cancelTurn(id);
    // The turn's end arrives later from agentctl; that the operator asked for it is recorded now.
    if (cancellation.cancelled) {
      await this.deps.uow.transaction((stores) =>
        stores.events.append({
          type: 'turn.cancel_requested',
          taskId: session.taskId,
          sessionId: id,
          data: { prompt_id: cancellation.promptId },
          at: this.deps.clock().toISOString(),
        }),
      );
    }
    return cancellation;
  }

  private async require(id: string, sessions: UnitOfWork['read']['sessions']): Promise<AgentSession> {
    const session = await sessions.findById(id);
    if (session === undefined) throw new AppError('not_found', `session ${id} not found`);
    return session;
  }

  /** The executor a launch asked for (validated against the configured ones), or the default. */
  private executorFor(requested: string | undefined): string {
    const { agentctls } = this.deps;
    if (requested === undefined) return agentctls.defaultExecutor;
    if (!agentctls.names().includes(requested)) throw unknownExecutor(requested, agentctls.names());
    return requested;
  }

  private newSession(
    config: LaunchedSession['config'],
    mcpToken: string,
    executor: string,
    placed: AgentctlEndpoint | undefined,
  ): AgentSession {
    const now = this.deps.clock().toISOString();
    return {
      id: config.sessionId,
      taskId: config.taskId,
      state: placed === undefined ? 'created' : 'starting',
      executor,
      agentctlAddress: placed?.grpcAddress ?? null,
      agentctlReplica: placed?.replica ?? null,
      revision: config.revision,
      launchConfig: redactLaunchConfig(config),
      appliedRevision: 0,
      appliedProviders: null,
      refreshError: null,
      refreshAttempts: 0,
      refreshedAt: null,
      mcpTokenHash: sha256Hex(mcpToken),
      surface: config.surface,
      lastError: null,
      acpSessionId: null,
      createdAt: now,
      updatedAt: now,
    };
  }
}
