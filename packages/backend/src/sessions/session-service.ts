import { AppError, isAppError, type LaunchConfig, mcpPathFor, redactLaunchConfig, sha256Hex } from '@kandev/protocol';
import type { AgentctlConnector } from '../executors/agentctl-client';
import type { AgentctlEndpoint, Executor } from '../executors/executor';
import type { Logger } from '../logger';
import { newId } from '../store/row-values';
import type { Stores, UnitOfWork } from '../store/unit-of-work';
import type { AgentSession, LaunchSessionBody } from './agent-session';
import { buildLaunchConfig } from './launch-config-builder';
import { generateMcpToken } from './mcp-token';
import type { RuntimeReport } from './session-view';

export interface SessionServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  executor: Executor;
  agentctl: AgentctlConnector;
  logger: Logger;
}

export interface LaunchedSession {
  session: AgentSession;
  /** Carries the real MCP token; never stored. */
  config: LaunchConfig;
  mcpUrl: string;
}

function mcpUrlOf(endpoint: AgentctlEndpoint, sessionId: string): string {
  return `${endpoint.mcpBaseUrl}${mcpPathFor(sessionId)}`;
}

export class SessionService {
  constructor(private readonly deps: SessionServiceDeps) {}

  /** Builds the launch config from one consistent read, persists the session, pushes it to agentctl. */
  async launch(taskId: string, body: LaunchSessionBody): Promise<LaunchedSession> {
    const mcpToken = generateMcpToken();
    const { session, config } = await this.deps.uow.transaction((stores) =>
      this.createRow(stores, taskId, body, mcpToken),
    );
    const log = this.deps.logger.child({ sessionId: session.id, taskId });
    try {
      const endpoint = await this.deps.executor.ensureAgentctl();
      await this.deps.agentctl.clientFor(endpoint).createSession(config);
      const now = this.deps.clock().toISOString();
      await this.deps.uow.read.sessions.markRunning(session.id, endpoint.grpcAddress, now);
      log.info({ questionCapability: config.questionCapability, providers: config.providers }, 'session launched');
      const running: AgentSession = { ...session, state: 'running', agentctlAddress: endpoint.grpcAddress };
      return { session: { ...running, updatedAt: now }, config, mcpUrl: mcpUrlOf(endpoint, session.id) };
    } catch (error) {
      const failure = isAppError(error) ? error : new AppError('unavailable', `agentctl failed: ${String(error)}`);
      await this.deps.uow.read.sessions.markFailed(session.id, failure.message, this.deps.clock().toISOString());
      log.warn({ err: error }, 'session launch failed');
      const message = `session ${session.id} could not start: ${failure.message}`;
      throw new AppError(failure.code, message, { session_id: session.id }, { cause: error });
    }
  }

  async get(id: string): Promise<{ session: AgentSession; runtime: RuntimeReport }> {
    const session = await this.deps.uow.read.sessions.findById(id);
    if (session === undefined) throw new AppError('not_found', `session ${id} not found`);
    return { session, runtime: await this.runtimeReport(id) };
  }

  /** Asks agentctl what the session can discover now; an unreachable agentctl is reported, not thrown. */
  private async runtimeReport(sessionId: string): Promise<RuntimeReport> {
    const endpoint = this.deps.executor.current();
    if (endpoint === undefined) {
      return {
        tools: null,
        connectionCount: null,
        launchConfig: null,
        mcpUrl: null,
        agentctl: { reachable: false, error: 'agentctl is not running' },
      };
    }
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
      const message = error instanceof Error ? error.message : String(error);
      return {
        tools: null,
        connectionCount: null,
        launchConfig: null,
        mcpUrl,
        agentctl: { reachable, error: message },
      };
    }
  }

  private async createRow(
    stores: Stores,
    taskId: string,
    body: LaunchSessionBody,
    mcpToken: string,
  ): Promise<{ session: AgentSession; config: LaunchConfig }> {
    const task = await stores.tasks.findById(taskId);
    if (task === undefined) throw new AppError('not_found', `task ${taskId} not found`);
    if (task.archivedAt !== null) throw new AppError('failed_precondition', `task ${taskId} is archived`);
    const hasParent = task.parentId !== null && (await stores.tasks.findById(task.parentId)) !== undefined;
    const attached = await stores.tasks.attachedRepositories(taskId);
    const agent =
      task.agentProfileId === null ? null : ((await stores.agentProfiles.findCommand(task.agentProfileId)) ?? null);
    const sessionId = newId();
    const config = buildLaunchConfig({
      task,
      hasParent,
      repositoryProviders: attached.map((a) => a.provider),
      surface: body.surface,
      ownsTaskTitle: body.owns_task_title,
      sessionId,
      revision: 1,
      mcpToken,
      agent,
    });
    const now = this.deps.clock().toISOString();
    const session: AgentSession = {
      id: sessionId,
      taskId,
      state: 'starting',
      executor: this.deps.executor.name,
      agentctlAddress: null,
      revision: config.revision,
      launchConfig: redactLaunchConfig(config),
      mcpTokenHash: sha256Hex(mcpToken),
      surface: config.surface,
      lastError: null,
      createdAt: now,
      updatedAt: now,
    };
    await stores.sessions.insert(session);
    return { session, config };
  }
}
