// The backend's tool handlers in process, on a fresh SQLite file per test, with a fake agentctl: a
// ToolCallContext is built from a real session row, exactly the bound identity the dispatcher passes.
import { AppError, type QuestionCapability, type Surface } from '@kandev/protocol';
import type { StartTimer } from '../../runtime/questions/question-service';
import type { AgentSession } from '../../runtime/sessions/agent-session';
import { isLive } from '../../runtime/sessions/session-lifecycle';
import type { ToolCallContext, ToolReply } from '../../agent-api/tool-calls/tool-handler';
import { runAdmittedCall } from '../../agent-api/tool-calls/tool-call-dispatcher';
import type { Cleanup } from '../cleanup';
import { launchConfigFor, sessionRow } from '../rows/session-rows';
import { FakeAgentctl } from './fake-agentctl';
import { ENDPOINT, fakeAgentctlPort } from './fake-agentctl-port';
import { createInProcessBackend, recordKicks } from './in-process-backend';

export { ENDPOINT, FakeAgentctl };

/** The provider-set recomputation in the harness's `sql`: task_repositories joined with repositories. */
export const PROVIDER_SET_QUERY = /from [`"]task_repositories[`"] as [`"]tr[`"] inner join [`"]repositories[`"]/i;

const NOW = Date.parse('2026-11-30T10:00:00.000Z');
/** Every table a tool may write. */
export const TABLES = [
  'workspaces',
  'repositories',
  'agent_profiles',
  'tasks',
  'task_repositories',
  'sessions',
  'messages',
  'prompt_queue',
  'questions',
  'parent_questions',
] as const;

export interface TaskSeed {
  workspaceId?: string;
  parentId?: string | null;
  autopilot?: boolean;
  archived?: boolean;
}

export interface SessionSeed {
  surface?: Surface;
  ownsTaskTitle?: boolean;
  state?: AgentSession['state'];
  /** Default 'user'. */
  questionCapability?: QuestionCapability;
}

export type ToolHarness = Awaited<ReturnType<typeof createToolHarness>>;

/** The backend in process (its real wiring, the fake agentctl), and the handlers of every tool. */
export interface HarnessOptions {
  questionTimeoutMs?: number;
  /** The question timeout's timer (default: a real one). */
  startTimer?: StartTimer;
}

export async function createToolHarness(cleanup: Cleanup, options: HarnessOptions = {}) {
  let ticks = 0;
  const clock = () => new Date(NOW + 1000 * ticks++); // distinct, increasing timestamps
  const agentctl = new FakeAgentctl();
  const { db, backend } = await createInProcessBackend(cleanup, {
    clock,
    agentctl: fakeAgentctlPort(agentctl),
    // A failed refresh is recorded, never retried in the background.
    config: {
      questionTimeoutMs: options.questionTimeoutMs ?? 600_000,
      refreshRetry: { baseMs: 1, maxDelayMs: 4, maxAttempts: 0 },
    },
    startTimer: options.startTimer,
  });
  const uow = backend.uow;
  /** Sessions whose queue a tool asked to drain, in order (the harness's sessions run no agent: nothing is sent). */
  const kicks = recordKicks(backend);
  const deps = { tasks: backend.tasks, questions: backend.questions, permissions: backend.permissions };
  const handlers = backend.toolHandlers;
  const sql: string[] = [];
  db.on('query', (query: { sql: string }) => sql.push(query.sql));

  async function workspace(id: string): Promise<void> {
    await uow.read.workspaces.insert({ id, name: `workspace ${id}`, createdAt: clock().toISOString() });
  }

  async function task(id: string, seed: TaskSeed = {}): Promise<void> {
    const at = clock().toISOString();
    await uow.read.tasks.insert({
      id,
      workspaceId: seed.workspaceId ?? 'w',
      parentId: seed.parentId ?? null,
      title: `task ${id}`,
      state: 'todo',
      autopilot: seed.autopilot ?? false,
      agentProfileId: null,
      archivedAt: seed.archived === true ? at : null,
      createdAt: at,
      updatedAt: at,
    });
  }

  /** A session row (and agentctl's copy of it, when live) at revision 1 with no providers; idle by default. */
  async function session(id: string, taskId: string, seed: SessionSeed = {}): Promise<void> {
    const owner = await uow.read.tasks.findById(taskId);
    const surface = seed.surface ?? 'kanban_task';
    const workspaceId = owner?.workspaceId ?? 'w';
    const config = launchConfigFor(
      { id, taskId, workspaceId },
      { surface, questionCapability: seed.questionCapability ?? 'user', ownsTaskTitle: seed.ownsTaskTitle ?? false },
    );
    const row = { state: seed.state ?? 'waiting_for_input', agentctlAddress: ENDPOINT.grpcAddress };
    await uow.read.sessions.insert(sessionRow(config, { ...row, at: clock().toISOString() }));
    if (isLive(seed.state ?? 'waiting_for_input')) agentctl.held.set(id, config);
  }

  async function contextFor(sessionId: string, toolName: string, bound: Partial<ToolCallContext> = {}) {
    const row = await uow.read.sessions.findById(sessionId);
    if (row === undefined) throw new Error(`no session ${sessionId}`);
    const context: ToolCallContext = {
      // Random per forward, like agentctl's: a retried call never has the same call id.
      callId: `call-${ticks}-${Math.random().toString(36).slice(2)}`,
      toolName,
      sessionId: row.id,
      taskId: row.taskId,
      workspaceId: row.launchConfig.workspaceId,
      session: row,
      reportProgress: () => undefined,
      signal: new AbortController().signal,
      ...bound,
    };
    return context;
  }

  /** Calls a tool as the agent of `sessionId` (the identity the dispatcher binds). */
  async function call(sessionId: string, tool: string, args: unknown, bound: Partial<ToolCallContext> = {}) {
    const handler = handlers[tool];
    if (handler === undefined) throw new Error(`no handler for ${tool}`);
    return runAdmittedCall(handler, await contextFor(sessionId, tool, bound), args);
  }

  /** Every row of every table a tool may write: equal snapshots mean nothing was written. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const table of TABLES)
      tables[table] = await db(table)
        .select()
        .orderBy(table === 'task_repositories' ? 'task_id' : 'id');
    return tables;
  }

  return { db, uow, backend, deps, clock, handlers, agentctl, kicks, sql, workspace, task, session, call, snapshot };
}

/** The AppError a call was refused with (fails the test when it succeeded). */
export async function refusal(result: Promise<ToolReply>): Promise<AppError> {
  try {
    const reply = await result;
    throw new Error(`expected a refusal, got ${JSON.stringify(reply)}`);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** A refusal with `code` that wrote nothing at all. */
export async function expectRefusedUnchanged(
  harness: ToolHarness,
  run: () => Promise<ToolReply>,
  code: AppError['code'],
): Promise<AppError> {
  const before = await harness.snapshot();
  const error = await refusal(run());
  expect({ code: error.code, message: error.message }).toEqual({ code, message: expect.any(String) });
  expect(await harness.snapshot()).toEqual(before);
  return error;
}
