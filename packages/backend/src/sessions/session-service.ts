import { AppError, isAppError, type LaunchConfig, mcpPathFor, redactLaunchConfig, sha256Hex } from '@kandev/protocol';
import type { AgentctlConnector } from '../executors/agentctl-client';
import type { AgentctlEndpoint, Executor } from '../executors/executor';
import type { Logger } from '../logger';
import { newId } from '../store/row-values';
import type { UnitOfWork } from '../store/unit-of-work';
import type { AgentSession, LaunchSessionBody } from './agent-session';
import { loadLaunchConfig } from './launch-config-loader';
import { generateMcpToken } from './mcp-token';
import type { RefreshScheduler } from './session-reconciler';
import type { RuntimeReport } from './session-view';

export interface SessionServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  executor: Executor;
  agentctl: AgentctlConnector;
  /** Catches up a session whose desired revision moved while its launch or resume was in flight. */
  refreshes: RefreshScheduler;
  /** Cleans up a CreateSession that agentctl may still apply after the backend gave up on it. */
  orphans: { sweepSoon(): void };
  logger: Logger;
}

export interface LaunchedSession {
  session: AgentSession;
  /** Carries the real MCP token; never stored. */
  config: LaunchConfig;
  mcpUrl: string;
}

/** Failures after which agentctl may still have run the CreateSession the backend gave up on. */
const AMBIGUOUS_FAILURES: ReadonlySet<string> = new Set(['deadline_exceeded', 'unavailable', 'internal']);

function mcpUrlOf(endpoint: AgentctlEndpoint, sessionId: string): string {
  return `${endpoint.mcpBaseUrl}${mcpPathFor(sessionId)}`;
}

export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  /** Builds the launch config from one consistent read, persists the session, pushes it to agentctl. */
  async launch(taskId: string, body: LaunchSessionBody): Promise<LaunchedSession> {
    const mcpToken = generateMcpToken();
    const { session, config } = await this.deps.uow.transaction(async (stores) => {
      const sessionId = newId();
      const config = await loadLaunchConfig(stores, {
        taskId,
        sessionId,
        surface: body.surface,
        ownsTaskTitle: body.owns_task_title,
        revision: 1,
        mcpToken,
      });
      const session = this.newSession(config, mcpToken);
      await stores.sessions.insert(session);
      return { session, config };
    });
    return this.start(session, config, 'session launched');
  }

  /**
   * Rebuilds the whole config from the database exactly as a launch does, at the next revision and
   * with a fresh MCP token (only its hash is kept, so the old one cannot be re-issued). agentctl
   * replaces the session's config and closes the connections made with the old token.
   */
  async resume(sessionId: string): Promise<LaunchedSession> {
    const mcpToken = generateMcpToken();
    const { session, config } = await this.deps.uow.transaction(async (stores) => {
      const existing = await stores.sessions.findById(sessionId);
      if (existing === undefined) throw new AppError('not_found', `session ${sessionId} not found`);
      if (existing.state === 'starting') {
        throw new AppError('failed_precondition', `session ${sessionId} is starting; resume it once it ran or failed`);
      }
      const config = await loadLaunchConfig(stores, {
        taskId: existing.taskId,
        sessionId,
        surface: existing.surface,
        ownsTaskTitle: existing.launchConfig.ownsTaskTitle,
        revision: existing.revision + 1,
        mcpToken,
      });
      const now = this.deps.clock().toISOString();
      const mcpTokenHash = sha256Hex(mcpToken);
      await stores.sessions.replaceForResume(sessionId, { config, mcpTokenHash, now });
      const session: AgentSession = {
        ...existing,
        state: 'starting',
        revision: config.revision,
        launchConfig: redactLaunchConfig(config),
        mcpTokenHash,
        updatedAt: now,
      };
      return { session, config };
    });
    return this.start(session, config, 'session resumed');
  }

  async get(id: string): Promise<{ session: AgentSession; runtime: RuntimeReport }> {
    const session = await this.deps.uow.read.sessions.findById(id);
    if (session === undefined) throw new AppError('not_found', `session ${id} not found`);
    return { session, runtime: await this.runtimeReport(id) };
  }

  /** ensureAgentctl + CreateSession; records running (acknowledged at this revision) or failed. */
  private async start(session: AgentSession, config: LaunchConfig, event: string): Promise<LaunchedSession> {
    const log = this.deps.logger.child({ sessionId: session.id, taskId: session.taskId });
    let endpoint: AgentctlEndpoint;
    const now = () => this.deps.clock().toISOString();
    try {
      endpoint = await this.deps.executor.ensureAgentctl();
      await this.deps.agentctl.clientFor(endpoint).createSession(config);
      const acknowledged = { revision: config.revision, providers: config.providers };
      await this.deps.uow.read.sessions.markRunning(session.id, endpoint.grpcAddress, acknowledged, now());
    } catch (error) {
      const failure = isAppError(error) ? error : new AppError('unavailable', `agentctl failed: ${String(error)}`);
      await this.deps.uow.read.sessions.markFailed(session.id, failure.message, now());
      log.warn({ err: error }, 'session start failed');
      if (AMBIGUOUS_FAILURES.has(failure.code)) this.deps.orphans.sweepSoon();
      const message = `session ${session.id} could not start: ${failure.message}`;
      throw new AppError(failure.code, message, { session_id: session.id }, { cause: error });
    }
    log.info(
      { revision: config.revision, questionCapability: config.questionCapability, providers: config.providers },
      event,
    );
    const stored = await this.deps.uow.read.sessions.findById(session.id);
    // A source batch committed while CreateSession was in flight bumped the desired revision.
    if (stored !== undefined && stored.revision > config.revision) this.deps.refreshes.schedule(session.id);
    const running: AgentSession = stored ?? { ...session, state: 'running', agentctlAddress: endpoint.grpcAddress };
    return { session: running, config, mcpUrl: mcpUrlOf(endpoint, session.id) };
  }

  private newSession(config: LaunchConfig, mcpToken: string): AgentSession {
    const now = this.deps.clock().toISOString();
    return {
      id: config.sessionId,
      taskId: config.taskId,
      state: 'starting',
      executor: this.deps.executor.name,
      agentctlAddress: null,
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
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Asks agentctl what the session can discover now; an unreachable agentctl is reported, not thrown. */
  private async runtimeReport(sessionId: string): Promise<RuntimeReport> {
    const endpoint = this.deps.executor.current();
    if (endpoint === undefined) return unreachable(null, false, 'agentctl is not running');
    const mcpUrl = mcpUrlOf(endpoint, sessionId);
    try {
      const state = await this.deps.agentctl.clientFor(endpoint).getSession(sessionId);
      return {
        tools: [...state.toolNames].sort(),
        connectionCount: state.connectionCount,
        launchConfig: state.config,
        mcpUrl,
        agentctl: { reachable: true },
      };
    } catch (error) {
      const reachable = isAppError(error) && error.code === 'not_found';
      return unreachable(mcpUrl, reachable, error instanceof Error ? error.message : String(error));
    }
  }
}

function unreachable(mcpUrl: string | null, reachable: boolean, error: string): RuntimeReport {
  return { tools: null, connectionCount: null, launchConfig: null, mcpUrl, agentctl: { reachable, error } };
}
