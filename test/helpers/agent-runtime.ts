// Black-box helpers for the agent runtime: a real backend (with its own agentctl) running the scripted
// test agent as a task's agent profile, driven over REST only. The REST shapes the tests rely on are
// declared here, in one place.
import { join } from 'node:path';
import { BackendApi, type LaunchedSession } from './backend-api';
import type { Cleanup } from './cleanup';
import { type BackendReady, type Daemon, isPidAlive, killPid, REPO_ROOT, startBackend, stopProcess } from './processes';
import { waitUntil } from './wait';

export const TEST_AGENT_MAIN = join(REPO_ROOT, 'packages/test-agent/dist/main.js');
export const AGENT_SCRIPTS_DIR = join(REPO_ROOT, 'test/fixtures/agent-scripts');

/** Absolute path of a fixture script under test/fixtures/agent-scripts/. */
export function agentScript(name: string): string {
  return join(AGENT_SCRIPTS_DIR, `${name}.json`);
}

/** Generous: a loaded CI machine may take seconds to spawn node and finish an ACP handshake. */
export const RUNTIME_TIMEOUT_MS = 20_000;

export type SessionState =
  'created' | 'starting' | 'running' | 'waiting_for_input' | 'completed' | 'failed' | 'cancelled';

export interface AgentView {
  status: 'none' | 'starting' | 'ready' | 'prompting' | 'exited';
  pid: number | null;
  acp_session_id: string | null;
  loaded: boolean;
  current_prompt_id: string | null;
  exit_reason: string | null;
}

export interface RuntimeSessionView {
  id: string;
  task_id: string;
  state: SessionState;
  last_error: string | null;
  tools: string[] | null;
  agent: AgentView | null;
}

export type PromptStatus = 'queued' | 'dispatched' | 'completed' | 'failed' | 'cancelled';

export interface QueuedPromptView {
  id: string;
  session_id: string;
  prompt: string;
  source: string;
  status: PromptStatus;
  stop_reason: string | null;
  error: string | null;
  /** Sent to the agent (dispatched_at set). */
  delivered: boolean;
  created_at: string;
  dispatched_at: string | null;
  finished_at: string | null;
}

export interface PostedPrompt {
  queued_prompt_id: string;
  message_id: string;
  session_id: string;
  status: string;
  /** Parent questions of the task this explicit input superseded (autopilot children only). */
  superseded_question_ids?: string[];
}

export interface ConversationEntry {
  id: string;
  session_id: string | null;
  type: string;
  author: string;
  content: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

const FINISHED: readonly PromptStatus[] = ['completed', 'failed'];

export function isFinished(prompt: QueuedPromptView): boolean {
  return FINISHED.includes(prompt.status);
}

/** The REST calls of the agent runtime, each checking its status so a test reads as the scenario. */
export class AgentRuntimeApi {
  /** Every agent pid a test saw, killed at cleanup in case a failed test left one behind. */
  private readonly seenPids = new Set<number>();

  constructor(
    readonly api: BackendApi,
    private readonly cleanup: Cleanup,
    readonly logs: () => string,
  ) {
    cleanup.defer(() => {
      for (const pid of this.seenPids) killPid(pid);
    });
  }

  private async call<T>(method: string, path: string, expected: number, body?: unknown): Promise<T> {
    const response = await this.api.request<T>(method, path, body);
    if (response.status !== expected) {
      throw new Error(
        `${method} ${path} -> ${response.status} (expected ${expected}): ${JSON.stringify(response.body)}`,
      );
    }
    return response.body;
  }

  /** An agent profile running the test agent with a fixture script (absolute paths: any cwd works). */
  async profile(
    script: string,
    options: { name?: string; supportsMcp?: boolean; permissionPolicy?: string } = {},
  ): Promise<string> {
    const profile = await this.call<{ id: string }>('POST', '/api/agent-profiles', 201, {
      name: options.name ?? `test agent ${script}`,
      command: process.execPath,
      args: [TEST_AGENT_MAIN, '--script', agentScript(script)],
      supports_mcp: options.supportsMcp ?? true,
      ...(options.permissionPolicy === undefined ? {} : { permission_policy: options.permissionPolicy }),
    });
    return profile.id;
  }

  async session(sessionId: string): Promise<RuntimeSessionView> {
    const view = await this.call<RuntimeSessionView>('GET', `/api/sessions/${sessionId}`, 200);
    if (typeof view.agent?.pid === 'number' && view.agent.pid > 0) this.seenPids.add(view.agent.pid);
    return view;
  }

  postPrompt(sessionId: string, prompt: string): Promise<PostedPrompt> {
    return this.call<PostedPrompt>('POST', `/api/sessions/${sessionId}/prompts`, 202, { prompt });
  }

  async prompts(sessionId: string): Promise<QueuedPromptView[]> {
    return (await this.call<{ items: QueuedPromptView[] }>('GET', `/api/sessions/${sessionId}/prompts`, 200)).items;
  }

  cancel(sessionId: string): Promise<{ cancelled: boolean; prompt_id: string | null }> {
    return this.call('POST', `/api/sessions/${sessionId}/cancel`, 200, {});
  }

  stop(sessionId: string): Promise<RuntimeSessionView> {
    return this.call('POST', `/api/sessions/${sessionId}/stop`, 200, {});
  }

  resume(sessionId: string): Promise<LaunchedSession> {
    return this.call('POST', `/api/sessions/${sessionId}/resume`, 200, {});
  }

  /** The whole conversation of a task, oldest first (every page). */
  async messages(taskId: string): Promise<ConversationEntry[]> {
    const all: ConversationEntry[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '?limit=200' : `?limit=200&cursor=${encodeURIComponent(cursor)}`;
      const page: { messages: ConversationEntry[]; next_cursor: string | null } = await this.call(
        'GET',
        `/api/tasks/${taskId}/messages${query}`,
        200,
      );
      all.push(...page.messages);
      cursor = page.next_cursor;
    } while (cursor !== null);
    return all;
  }

  /** The agent's text replies in the conversation, oldest first. */
  async agentReplies(taskId: string): Promise<string[]> {
    return (await this.messages(taskId))
      .filter((m) => m.type === 'message' && m.author === 'agent')
      .map((m) => m.content);
  }

  waitForSession(
    sessionId: string,
    holds: (view: RuntimeSessionView) => boolean,
    what: string,
  ): Promise<RuntimeSessionView> {
    return waitUntil(
      async () => {
        const view = await this.session(sessionId);
        return holds(view) ? view : undefined;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: this.logs, what: `session ${sessionId}: ${what}` },
    );
  }

  waitForState(sessionId: string, state: SessionState): Promise<RuntimeSessionView> {
    return this.waitForSession(sessionId, (view) => view.state === state, `state ${state}`);
  }

  waitForPrompts(
    sessionId: string,
    holds: (prompts: QueuedPromptView[]) => boolean,
    what: string,
  ): Promise<QueuedPromptView[]> {
    return waitUntil(
      async () => {
        const prompts = await this.prompts(sessionId);
        return holds(prompts) ? prompts : undefined;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: this.logs, what: `session ${sessionId}: ${what}` },
    );
  }

  /** Waits until the prompt is the one the agent is working on (dispatched, the agent prompting). */
  async waitForTurn(sessionId: string, promptId: string): Promise<RuntimeSessionView> {
    await this.waitForPrompts(
      sessionId,
      (prompts) => prompts.find((p) => p.id === promptId)?.status === 'dispatched',
      `prompt ${promptId} dispatched`,
    );
    return this.waitForSession(
      sessionId,
      (view) => view.agent?.status === 'prompting' && view.agent.current_prompt_id === promptId,
      `agent prompting ${promptId}`,
    );
  }

  /** Waits for every prompt to be completed or failed. */
  waitForDrained(sessionId: string, count: number): Promise<QueuedPromptView[]> {
    return this.waitForPrompts(
      sessionId,
      (prompts) => prompts.length === count && prompts.every(isFinished),
      `${count} prompts finished`,
    );
  }
}

export interface AgentSessionSetup {
  backend: Daemon<BackendReady> & { dataDir: string; apiToken: string };
  runtime: AgentRuntimeApi;
  workspaceId: string;
  taskId: string;
  session: LaunchedSession;
  /** The session once its agent finished the handshake (waiting_for_input, agent ready). */
  ready: RuntimeSessionView;
}

/**
 * A real backend on a fresh data dir and one task whose agent profile runs the test agent with
 * `script`; launches a session and waits until the agent is ready for a prompt.
 */
export async function launchAgentSession(
  cleanup: Cleanup,
  script: string,
  options: {
    supportsMcp?: boolean;
    env?: Record<string, string>;
    /** Attached as the task's local repository: the agent's working directory. */
    localPath?: string;
    /** The profile's permission_policy (default: the backend's, ask). */
    permissionPolicy?: string;
    /** Extra task fields (e.g. autopilot). */
    task?: Record<string, unknown>;
  } = {},
): Promise<AgentSessionSetup> {
  const backend = await startBackend(cleanup, options.env ?? {});
  // Runs before startBackend's own steps (cleanup is a stack): a graceful stop lets the backend stop
  // its agentctl, which stops the agents, instead of agentctl being SIGKILLed under them.
  cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
  const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, backend.logs);
  const workspaceId = await runtime.api.workspace();
  const profileId = await runtime.profile(script, {
    supportsMcp: options.supportsMcp,
    permissionPolicy: options.permissionPolicy,
  });
  const repositoryIds =
    options.localPath === undefined
      ? []
      : [(await runtime.api.repository(workspaceId, { local_path: options.localPath })).id];
  const task = await runtime.api.task(workspaceId, {
    title: 'Agent runtime task',
    agent_profile_id: profileId,
    repository_ids: repositoryIds,
    ...options.task,
  });
  const session = await runtime.api.launch(task.id);
  const ready = await waitForAgentReady(runtime, session.session_id);
  return { backend, runtime, workspaceId, taskId: task.id, session, ready };
}

export function waitForAgentReady(runtime: AgentRuntimeApi, sessionId: string): Promise<RuntimeSessionView> {
  return runtime.waitForSession(
    sessionId,
    (view) => view.state === 'waiting_for_input' && view.agent?.status === 'ready',
    'waiting_for_input with the agent ready',
  );
}

/** The agent's pid as the backend reports it; fails when there is none or it is not running here. */
export function agentPid(view: RuntimeSessionView): number {
  const pid = view.agent?.pid;
  if (typeof pid !== 'number' || pid <= 0) throw new Error(`no agent pid in ${JSON.stringify(view.agent)}`);
  if (!isPidAlive(pid)) throw new Error(`agent pid ${pid} is not running`);
  return pid;
}

export async function waitForPidGone(pid: number, what: string): Promise<void> {
  await waitUntil(() => !isPidAlive(pid), { timeoutMs: RUNTIME_TIMEOUT_MS, what });
}
