// Black-box helpers for autopilot tasks and parent questions: a real backend (with its own agentctl)
// whose tasks run the scripted test agent, or serve MCP only so a test answers as the parent itself.
// Driven over REST and real MCP only; the REST shapes these tests rely on are declared here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentRuntimeApi,
  type ConversationEntry,
  type QueuedPromptView,
  RUNTIME_TIMEOUT_MS,
  waitForAgentReady,
} from './agent-runtime';
import { BackendApi, type LaunchedSession } from './backend-api';
import type { Cleanup } from './cleanup';
import { connectMcp, type McpConnection } from './mcp';
import { type BackendReady, type Daemon, startBackend, stopProcess } from './processes';
import { waitUntil } from './wait';

export const ASK_PARENT = 'ask_parent_question_kandev';
export const ASK_USER = 'ask_user_question_kandev';
export const MESSAGE_TASK = 'message_task_kandev';

/** GET /api/tasks/:id, the fields these tests read. */
export interface TaskView {
  id: string;
  parent_id: string | null;
  autopilot: boolean;
  /** 'clarification' while the task waits for its parent's answer; null otherwise. */
  pending_action: string | null;
}

export type ParentQuestionStatus = 'pending' | 'answered' | 'superseded' | 'stale';

/** One item of GET /api/tasks/:id/parent-questions. */
export interface ParentQuestionView {
  id: string;
  child_task_id: string;
  parent_task_id: string;
  status: ParentQuestionStatus;
  questions: { prompt: string; options?: { label: string }[] }[];
  closed_reason: string | null;
  /** The accepted answer: its text and who gave it. */
  answer: { text: string; by_task_id: string; by_session_id: string; answer_prompt_id: string } | null;
}

/** An MCP tool result as the SDK client returns it. */
export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

export const resultText = (result: ToolResult): string => result.content.map((c) => c.text).join('\n');

/** A session and, when its task has an agent, the agent ready for prompts. */
export interface TaskSession {
  taskId: string;
  session: LaunchedSession;
  sessionId: string;
}

/** One backend, one workspace; tasks are created with or without a scripted agent. */
export class AutopilotWorld {
  private readonly profiles = new Map<string, string>();

  constructor(
    readonly backend: Daemon<BackendReady> & { dataDir: string },
    readonly runtime: AgentRuntimeApi,
    readonly workspaceId: string,
    private readonly cleanup: Cleanup,
  ) {}

  get api(): BackendApi {
    return this.runtime.api;
  }

  static async start(cleanup: Cleanup, env: Record<string, string> = {}): Promise<AutopilotWorld> {
    const backend = await startBackend(cleanup, env);
    // Before startBackend's own steps (cleanup is a stack): a graceful stop lets the backend stop its
    // agentctl, which stops the agents.
    cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
    const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, backend.logs);
    return new AutopilotWorld(backend, runtime, await runtime.api.workspace(), cleanup);
  }

  /**
   * SIGKILLs this backend and starts another on the same data dir; it adopts the agentctl (and so the
   * agents) the first one left running.
   */
  async restart(): Promise<AutopilotWorld> {
    this.backend.child.kill('SIGKILL');
    await new Promise((resolve) => this.backend.child.once('exit', resolve));
    const backend = await startBackend(this.cleanup, { KANDEV_DATA_DIR: this.backend.dataDir });
    this.cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
    const runtime = new AgentRuntimeApi(
      new BackendApi(backend.ready.url, backend.apiToken),
      this.cleanup,
      backend.logs,
    );
    const world = new AutopilotWorld(backend, runtime, this.workspaceId, this.cleanup);
    for (const [script, id] of this.profiles) world.profiles.set(script, id);
    return world;
  }

  logs = (): string => this.backend.logs();

  private async call<T>(method: string, path: string, expected: number, body?: unknown): Promise<T> {
    const response = await this.api.request<T>(method, path, body);
    if (response.status !== expected) {
      throw new Error(
        `${method} ${path} -> ${response.status} (expected ${expected}): ${JSON.stringify(response.body)}`,
      );
    }
    return response.body;
  }

  /** The test agent's profile for a fixture script, created once per backend. */
  async profileFor(script: string): Promise<string> {
    const known = this.profiles.get(script);
    if (known !== undefined) return known;
    const id = await this.runtime.profile(script, { name: `test agent ${script}` });
    this.profiles.set(script, id);
    return id;
  }

  /**
   * POST /api/tasks. `script`: the task's agent runs that fixture (or pass any `agent_profile_id`);
   * without either, its sessions serve MCP only (no agent: prompts queued for them stay queued).
   * `workDir`: attached as the task's local repository.
   */
  async task(fields: {
    title: string;
    parent_id?: string;
    autopilot?: boolean;
    script?: string;
    agent_profile_id?: string;
    workDir?: string;
  }): Promise<TaskView> {
    const { script, workDir, ...rest } = fields;
    const body: Record<string, unknown> = { workspace_id: this.workspaceId, ...rest };
    if (script !== undefined) body.agent_profile_id = await this.profileFor(script);
    if (workDir !== undefined) {
      body.repository_ids = [(await this.api.repository(this.workspaceId, { local_path: workDir })).id];
    }
    return this.call<TaskView>('POST', '/api/tasks', 201, body);
  }

  getTask(taskId: string): Promise<TaskView> {
    return this.call<TaskView>('GET', `/api/tasks/${taskId}`, 200);
  }

  reparent(taskId: string, parentId: string | null): Promise<TaskView> {
    return this.call<TaskView>('PATCH', `/api/tasks/${taskId}`, 200, { parent_id: parentId });
  }

  /** Launches a session of the task; with an agent, waits until it is ready for a prompt. */
  async launch(taskId: string, options: { agent: boolean }): Promise<TaskSession> {
    const session = await this.api.launch(taskId);
    if (options.agent) await waitForAgentReady(this.runtime, session.session_id);
    return { taskId, session, sessionId: session.session_id };
  }

  /** A real MCP client on the session's endpoint, once the backend is attached (tool calls go through). */
  async mcp(session: TaskSession): Promise<McpConnection> {
    const mcp = await connectMcp(this.cleanup, session.session.mcp_url, session.session.mcp_token);
    await waitUntil(
      async () => {
        const result = (await mcp.client.callTool({ name: 'get_task_kandev', arguments: {} })) as ToolResult;
        return result.isError !== true;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: this.logs, what: 'the backend to attach to the MCP endpoint' },
    );
    return mcp;
  }

  async parentQuestions(taskId: string): Promise<ParentQuestionView[]> {
    const body = await this.call<{ parent_questions: ParentQuestionView[] }>(
      'GET',
      `/api/tasks/${taskId}/parent-questions`,
      200,
    );
    return body.parent_questions;
  }

  /** Waits until the child has exactly one parent question in `status`, and returns it. */
  async waitForQuestion(childId: string, status: ParentQuestionStatus): Promise<ParentQuestionView> {
    return waitUntil(
      async () => {
        const questions = await this.parentQuestions(childId);
        return questions.length === 1 && questions[0]!.status === status ? questions[0] : undefined;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: this.logs, what: `task ${childId}: one parent question ${status}` },
    );
  }

  async waitForPendingAction(taskId: string, action: string | null): Promise<TaskView> {
    return waitUntil(
      async () => {
        const task = await this.getTask(taskId);
        return task.pending_action === action ? task : undefined;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: this.logs, what: `task ${taskId}: pending_action ${String(action)}` },
    );
  }

  /** The task's tool_call entries for one tool, oldest first. */
  async toolCalls(taskId: string, tool: string): Promise<ConversationEntry[]> {
    return (await this.runtime.messages(taskId)).filter((m) => m.type === 'tool_call' && m.content === tool);
  }

  /** Waits until the task has `count` finished tool calls of `tool` (completed or failed). */
  waitForToolCalls(taskId: string, tool: string, count: number): Promise<ConversationEntry[]> {
    return waitUntil(
      async () => {
        const calls = await this.toolCalls(taskId, tool);
        const done = calls.filter((c) => c.metadata.status === 'completed' || c.metadata.status === 'failed');
        return done.length === count ? done : undefined;
      },
      { timeoutMs: RUNTIME_TIMEOUT_MS, logs: this.logs, what: `task ${taskId}: ${count} finished ${tool} calls` },
    );
  }

  /** The prompts queued for a session, oldest first. */
  prompts(sessionId: string): Promise<QueuedPromptView[]> {
    return this.runtime.prompts(sessionId);
  }
}

/** message_task_kandev from a parent's MCP connection, answering (or trying to answer) a question. */
export async function answerOverMcp(
  mcp: McpConnection,
  childId: string,
  questionId: string,
  prompt: string,
): Promise<ToolResult> {
  return (await mcp.client.callTool({
    name: MESSAGE_TASK,
    arguments: { task_id: childId, prompt, reply_to_question_id: questionId },
  })) as ToolResult;
}

/** Releases a wait_for_file step of the session's agent: the file goes in its working directory (its task workspace). */
export function releaseInWorkDir(session: TaskSession, file: string): void {
  const cwd = session.session.launch_config.agent?.cwd;
  if (typeof cwd !== 'string') throw new Error(`session ${session.sessionId} has no agent working directory`);
  writeFileSync(join(cwd, file), '');
}

/** The result of a tool_call entry as the conversation keeps it (the text the agent saw). */
export function toolCallOutputText(entry: ConversationEntry): string {
  const output = entry.metadata.output;
  return typeof output === 'string' ? output : JSON.stringify(output ?? null);
}
