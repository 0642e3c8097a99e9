// The provider-automation tests in process: the backend's services and tool handlers on a fresh SQLite
// file, and no agentctl (source changes commit; their live refresh fails and is only recorded).
import {
  type AgentSession,
  createApp,
  createInProcessBackend,
  type GithubPort,
  type GitlabPort,
  type InProcessBackendOptions,
  launchConfigFor,
  listen,
  runAdmittedCall,
  sessionRow,
  type ToolCallContext,
  type ToolReply,
} from '@kandev/backend/testing';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';

export const NOW = '2026-11-30T10:00:00.000Z';

export interface ProviderAutomationOptions {
  /** Default: the fixed time NOW. */
  clock?: () => Date;
  /** Default: GitLab reached for real, tokens stored unverified. */
  gitlab?: GitlabPort;
  github?: GithubPort;
  config?: InProcessBackendOptions['config'];
  random?: () => number;
}

export async function createProviderAutomationEnv(cleanup: Cleanup, options: ProviderAutomationOptions = {}) {
  const { db, logger, backend } = await createInProcessBackend(cleanup, {
    clock: options.clock ?? (() => new Date(NOW)),
    gitlab: options.gitlab,
    github: options.github,
    random: options.random,
    // No agentctl is up: a refresh fails once, recorded, never retried in the background.
    config: { refreshRetry: { baseMs: 1, maxDelayMs: 4, maxAttempts: 0 }, ...options.config },
  });
  const { uow, repositories, sources, tasks, links, credentials, evaluator, poller, toolHandlers: handlers } = backend;
  return { db, uow, logger, backend, repositories, sources, tasks, links, credentials, evaluator, poller, handlers };
}

export type ProviderAutomationEnv = Awaited<ReturnType<typeof createProviderAutomationEnv>>;

/** The backend's REST routes on a loopback port, with its app factory and error middleware. */
export async function serveProviderAutomation(cleanup: Cleanup, env: ProviderAutomationEnv): Promise<BackendApi> {
  const server = await listen(createApp(env.logger, env.backend.routers), '127.0.0.1', 0);
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
  const launchConfig = launchConfigFor({ id, taskId, workspaceId }, { providers: ['github', 'gitlab'] });
  const session = sessionRow(launchConfig, { at: NOW });
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
