// The parent-question lifecycle in process: the turn harness (real drainer with the parent-question
// gate, session events from the fake agentctl, boot reconcile) and its backend's tool handlers, so a
// test plays each task's agent: it calls tools as a session (the identity the dispatcher binds) and
// ends its turns. A second harness over the same data dir and fake agentctl is a restarted backend.
import type { AskParentQuestionArgs, ToolCallContext, ToolReply } from '@kandev/backend/testing';
import type { Cleanup } from './cleanup';
import { createTurnHarness, type TurnHarnessOptions } from './turn-harness';
import { waitUntil } from './wait';

export const ASK_PARENT = 'ask_parent_question_kandev';
export const MESSAGE_TASK = 'message_task_kandev';

/** A question as an autopilot child asks it (one multiple-choice question). */
export function question(
  prompt = 'Which database?',
  blockedReason = 'the schema depends on it',
): AskParentQuestionArgs {
  return {
    questions: [{ id: 'db', prompt, options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
    blocked_reason: blockedReason,
  };
}

export type ParentQuestionHarness = Awaited<ReturnType<typeof createParentQuestionHarness>>;

export async function createParentQuestionHarness(cleanup: Cleanup, options: TurnHarnessOptions = {}) {
  const h = await createTurnHarness(cleanup, options);
  const { tasks, toolHandlers: handlers } = h.backend;
  const deps = { tasks, questions: h.questions };
  let calls = 0;

  /** Calls a tool as the agent of `sessionId`, with a fresh random call id (like agentctl's forwards). */
  async function call(sessionId: string, tool: string, args: unknown, bound: Partial<ToolCallContext> = {}) {
    const handler = handlers[tool];
    if (handler === undefined) throw new Error(`no handler for ${tool}`);
    const session = await h.uow.read.sessions.findById(sessionId);
    if (session === undefined) throw new Error(`no session ${sessionId}`);
    const context: ToolCallContext = {
      callId: `call-${++calls}-${Math.random().toString(36).slice(2)}`,
      toolName: tool,
      sessionId,
      taskId: session.taskId,
      workspaceId: session.launchConfig.workspaceId,
      session,
      reportProgress: () => undefined,
      signal: new AbortController().signal,
      ...bound,
    };
    return handler(context, args);
  }

  /** Launches a session of the task and waits until its agent is ready (idle, or already in a first turn). */
  async function launch(taskId: string): Promise<string> {
    const launched = await h.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });
    const id = launched.session.id;
    await waitUntil(async () => ['waiting_for_input', 'running'].includes((await h.state(id)) ?? ''), {
      timeoutMs: 5_000,
      what: `session ${id} to be ready`,
    });
    return id;
  }

  /**
   * root (normal) -> child (autopilot) [-> grandchild (autopilot)], in one workspace, each with an agent
   * session ready. `childAgent: false`: the child has no agent profile (an MCP-only session).
   */
  async function family(options: { grandchild?: boolean; parentSession?: boolean } = {}) {
    const root = await h.agentTask();
    const workspaceId = (await h.uow.read.tasks.findById(root))?.workspaceId ?? '';
    const child = await h.agentTask({ workspaceId, parentId: root, autopilot: true });
    const grandchild =
      options.grandchild === true ? await h.agentTask({ workspaceId, parentId: child, autopilot: true }) : undefined;
    const rootSession = options.parentSession === false ? undefined : await launch(root);
    const childSession = await launch(child);
    const grandchildSession = grandchild === undefined ? undefined : await launch(grandchild);
    return { workspaceId, root, child, grandchild, rootSession, childSession, grandchildSession };
  }

  /** Queues an operator prompt for the session and waits until its turn runs; resolves its prompt id. */
  async function turn(sessionId: string, text: string): Promise<string> {
    const promptId = await h.prompt(sessionId, text);
    await h.untilRunning(sessionId, promptId);
    return promptId;
  }

  /** Waits for the session's agent to run a turn whose prompt text matches; resolves its prompt id. */
  async function untilPromptRuns(sessionId: string, match: RegExp): Promise<string> {
    return waitUntil(
      () => {
        const current = h.agentctl.agents.get(sessionId)?.currentPromptId ?? null;
        const delivered = h.agentctl.delivered.find((d) => d.sessionId === sessionId && d.promptId === current);
        return delivered !== undefined && match.test(delivered.text) ? delivered.promptId : undefined;
      },
      { timeoutMs: 5_000, what: `a turn matching ${String(match)} to run in ${sessionId}` },
    );
  }

  /** The prompts that reached the session's agent (at most once per id), in order. */
  function deliveredTo(sessionId: string) {
    return h.agentctl.delivered.filter((d) => d.sessionId === sessionId);
  }

  /** The structured result of a tool call. */
  function structured(reply: ToolReply): Record<string, unknown> {
    return reply.structured ?? {};
  }

  return { ...h, deps, tasks, handlers, call, launch, family, turn, untilPromptRuns, deliveredTo, structured };
}
