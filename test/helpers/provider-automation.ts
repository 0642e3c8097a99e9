// In-process wiring for the provider-automation tests: a fresh SQLite file, the real services and tool
// handlers, and no agentctl (source changes commit; their live refresh fails and is only recorded).
import type { LaunchConfig } from '@kandev/protocol';
import type { Executor } from '../../packages/backend/src/executors/executor';
import { createApp } from '../../packages/backend/src/http/app';
import { listen } from '../../packages/backend/src/http/http-server';
import { createLogger } from '../../packages/backend/src/logger';
import { createProviderAutomationRoutes } from '../../packages/backend/src/provider-automation/provider-automation-routes';
import { ReviewLinkService } from '../../packages/backend/src/provider-automation/review-link-service';
import { WorkspaceCredentialService } from '../../packages/backend/src/provider-automation/workspace-credential-service';
import { QuestionService } from '../../packages/backend/src/questions/question-service';
import { RepositoryService } from '../../packages/backend/src/repositories/repository-service';
import type { AgentSession } from '../../packages/backend/src/sessions/agent-session';
import { ProviderPusher } from '../../packages/backend/src/sessions/provider-pusher';
import { ProviderRefreshService } from '../../packages/backend/src/sessions/provider-refresh-service';
import { createDatabase, migrateToLatest } from '../../packages/backend/src/store/database';
import { createUnitOfWork } from '../../packages/backend/src/store/unit-of-work';
import { TaskService } from '../../packages/backend/src/tasks/task-service';
import type { ToolCallContext, ToolReply } from '../../packages/backend/src/tool-calls/tool-call';
import { runAdmittedCall } from '../../packages/backend/src/tool-calls/tool-call-dispatcher';
import { createToolHandlers } from '../../packages/backend/src/tool-calls/tool-handler-registry';
import { WorkspaceSourceService } from '../../packages/backend/src/workspace-sources/workspace-source-service';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
import { tempDir } from './processes';

export const NOW = '2026-11-30T10:00:00.000Z';
/** What agentctl and its gRPC client are not needed for: no agentctl is running. */
const NO_AGENTCTL: Executor = {
  name: 'local',
  ensureAgentctl: () => Promise.reject(new Error('no agentctl in this test')),
  current: () => undefined,
  status: () => ({ running: false, pid: null, grpcAddress: null, mcpBaseUrl: null }),
  stop: () => Promise.resolve(),
};

export async function createProviderAutomationEnv(cleanup: Cleanup) {
  const db = createDatabase(tempDir(cleanup));
  cleanup.defer(() => db.destroy());
  await migrateToLatest(db);
  const uow = createUnitOfWork(db);
  const clock = () => new Date(NOW);
  const logger = createLogger('silent');
  const agentctl = {
    clientFor: () => {
      throw new Error('no agentctl in this test');
    },
  };
  const pusher = new ProviderPusher({ uow, clock, executor: NO_AGENTCTL, agentctl, logger });
  const refresh = new ProviderRefreshService({ pusher, scheduler: { schedule: () => undefined }, logger });
  const repositories = new RepositoryService({ uow, clock, gitlabHosts: [] });
  const sources = new WorkspaceSourceService({ uow, clock, repositories, refresh, logger });
  const tasks = new TaskService({ uow, clock });
  const links = new ReviewLinkService({ uow, clock });
  const credentials = new WorkspaceCredentialService({ uow, clock });
  const questions = new QuestionService({ uow, clock, timeoutMs: 600_000, logger });
  // No drainer here: the review tools queue no prompts.
  const prompts = { kick: () => Promise.resolve() };
  const handlers = createToolHandlers({ uow, clock, logger, tasks, workspaceSources: sources, questions, prompts });
  return { db, uow, logger, repositories, sources, tasks, links, credentials, handlers };
}

export type ProviderAutomationEnv = Awaited<ReturnType<typeof createProviderAutomationEnv>>;

/** The env's REST routes on a loopback port, with the backend's app factory and error middleware. */
export async function serveProviderAutomation(cleanup: Cleanup, env: ProviderAutomationEnv): Promise<BackendApi> {
  const router = createProviderAutomationRoutes({ links: env.links, credentials: env.credentials });
  const server = await listen(createApp(env.logger, [router]), '127.0.0.1', 0);
  cleanup.defer(() => server.close());
  return new BackendApi(`http://127.0.0.1:${server.port}`);
}

/** A live session row of the task, as a launch of an MCP-only session leaves it (waiting for input). */
export async function insertSession(
  env: ProviderAutomationEnv,
  id: string,
  taskId: string,
  workspaceId: string,
): Promise<AgentSession> {
  const launchConfig: LaunchConfig = {
    sessionId: id,
    taskId,
    workspaceId,
    surface: 'kanban_task',
    questionCapability: 'user',
    providers: ['github', 'gitlab'],
    revision: 1,
    ownsTaskTitle: false,
    mcpToken: '',
    systemPrompt: 'p',
    agent: null,
  };
  const session: AgentSession = {
    id,
    taskId,
    state: 'waiting_for_input',
    executor: 'local',
    agentctlAddress: '127.0.0.1:1',
    revision: 1,
    launchConfig,
    appliedRevision: 1,
    appliedProviders: ['github', 'gitlab'],
    refreshError: null,
    refreshAttempts: 0,
    refreshedAt: null,
    mcpTokenHash: 'ab'.repeat(32),
    surface: 'kanban_task',
    lastError: null,
    acpSessionId: null,
    createdAt: NOW,
    updatedAt: NOW,
  };
  await env.uow.read.sessions.insert(session);
  return session;
}

/** The context the dispatcher hands a handler for a call from this session. */
export function toolContext(session: AgentSession, workspaceId: string, toolName: string): ToolCallContext {
  return {
    callId: `call-${toolName}`,
    toolName,
    sessionId: session.id,
    taskId: session.taskId,
    workspaceId,
    session,
    reportProgress: () => undefined,
    signal: new AbortController().signal,
  };
}

/** Calls a tool through the registry as the dispatcher would. */
export async function callTool(
  env: ProviderAutomationEnv,
  session: AgentSession,
  workspaceId: string,
  toolName: string,
  args: unknown,
): Promise<ToolReply> {
  const handler = env.handlers[toolName];
  if (handler === undefined) throw new Error(`no handler for ${toolName}`);
  return runAdmittedCall(handler, toolContext(session, workspaceId, toolName), args);
}
