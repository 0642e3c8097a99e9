// Shared pieces of the live source update tests: REST shapes, calls, and MCP stream readiness.
import { type ApiResponse, BackendApi, type LaunchedSession } from './backend-api';
import type { Cleanup } from './cleanup';
import { connectMcp, type McpConnection } from './mcp';
import { startBackend } from './processes';
import { MR_PAIR, PR_PAIR } from './tool-names';
import { waitUntil } from './wait';

export { MR_PAIR, PR_PAIR };
export const USER_Q = 'ask_user_question_kandev';
export const PARENT_Q = 'ask_parent_question_kandev';

/** Which provider tool pairs a tool list contains. */
export function providersIn(tools: readonly string[]): string[] {
  const providers: string[] = [];
  if (PR_PAIR.some((tool) => tools.includes(tool))) providers.push('github');
  if (MR_PAIR.some((tool) => tools.includes(tool))) providers.push('gitlab');
  return providers;
}

export interface SessionRefreshBody {
  session_id: string;
  status: 'applied' | 'failed' | 'not_needed';
  revision: number;
  reason?: string;
}

export interface RefreshBody {
  status: 'applied' | 'failed' | 'not_needed' | 'partial';
  sessions: SessionRefreshBody[];
}

export interface BatchBody {
  task_id: string;
  batch_id: string | null;
  added: { id: string; provider: string | null; base_branch: string | null; remote_url: string | null }[];
  providers: string[];
  refresh: RefreshBody;
}

export interface RemovalBody {
  task_id: string;
  removed: { id: string; provider: string | null };
  providers: string[];
  refresh: RefreshBody;
}

export interface SessionBody {
  id: string;
  state: string;
  revision: number;
  applied_revision: number;
  refresh_error: string | null;
  last_error: string | null;
  launch_config: { providers: string[]; question_capability: string; revision: number };
  tools: string[] | null;
  connection_count: number | null;
}

export interface TaskBody {
  id: string;
  parent_id: string | null;
  repository_ids: string[];
  providers: string[];
}

export type Source = Record<string, unknown>;

/** What a source change's answer waits for (the REST default is `dispatched`). */
export type RefreshWait = 'applied' | 'dispatched';

/** The backend's REST API with the live-update calls. */
export class LiveApi extends BackendApi {
  /** `wait`: `applied` (these tests check what agentctl answered) unless a test asks for the default. */
  addSources(taskId: string, sources: unknown, wait: RefreshWait = 'applied'): Promise<ApiResponse<BatchBody>> {
    return this.request<BatchBody>('POST', `/api/tasks/${taskId}/workspace-sources?wait=${wait}`, { sources });
  }

  removeSource(taskId: string, repositoryId: string, wait: RefreshWait = 'applied'): Promise<ApiResponse<RemovalBody>> {
    return this.request<RemovalBody>('DELETE', `/api/tasks/${taskId}/workspace-sources/${repositoryId}?wait=${wait}`);
  }

  resume(sessionId: string, body: unknown = {}): Promise<ApiResponse<LaunchedSession>> {
    return this.request<LaunchedSession>('POST', `/api/sessions/${sessionId}/resume`, body);
  }

  async session(sessionId: string): Promise<SessionBody> {
    const response = await this.request<SessionBody>('GET', `/api/sessions/${sessionId}`);
    if (response.status !== 200) throw new Error(`GET session -> ${response.status}`);
    return response.body;
  }

  async getTask(taskId: string): Promise<TaskBody> {
    const response = await this.request<TaskBody>('GET', `/api/tasks/${taskId}`);
    if (response.status !== 200) throw new Error(`GET task -> ${response.status}`);
    return response.body;
  }
}

/** A backend with its own agentctl, the API and a fresh workspace. */
export async function startLiveBackend(cleanup: Cleanup, env: Record<string, string> = {}) {
  const backend = await startBackend(cleanup, env);
  const api = new LiveApi(backend.ready.url, backend.apiToken);
  return { backend, api, workspaceId: await api.workspace() };
}

/** A real SDK client whose GET notification stream is open (so list_changed cannot be missed). */
export async function connectStreaming(
  cleanup: Cleanup,
  session: Pick<LaunchedSession, 'mcp_url' | 'mcp_token'>,
  logs: () => string,
): Promise<McpConnection> {
  const connection = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
  await waitUntil(() => connection.notificationStreamOpen(), { timeoutMs: 5_000, logs, what: 'the SSE stream' });
  return connection;
}

/**
 * Waits for the n-th list_changed and checks that no more than n have arrived so far. That catches an
 * extra one only if it came first; the proof that none other arrived is finalListChangedCount (./mcp),
 * read after the session's connections were closed.
 */
export async function expectListChangedCount(mcp: McpConnection, n: number, logs: () => string): Promise<void> {
  await waitUntil(() => mcp.listChangedCount() >= n, { timeoutMs: 5_000, logs, what: `list_changed #${n}` });
  expect(mcp.listChangedCount()).toBe(n);
}

/**
 * SIGSTOPs a process for the duration of `work` (SIGCONT even when it throws). A process `work` killed
 * may already be reaped by then: nothing is left to continue.
 */
export async function whileStopped<T>(pid: number, work: () => Promise<T>): Promise<T> {
  process.kill(pid, 'SIGSTOP');
  try {
    return await work();
  } finally {
    continueUnlessGone(pid);
  }
}

function continueUnlessGone(pid: number): void {
  try {
    process.kill(pid, 'SIGCONT');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}
