import { AppError, createTaskTool, setTaskTitleTool, updateTaskTool } from '@kandev/protocol';
import { taskAuthor } from '../../catalogue/messages/message';
import { recordTaskPrompt } from '../../runtime/prompt-queue/task-prompt';
import { newId } from '../../platform/store/row-values';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import { assertWritable, rejectImmutableTaskFields, type Task } from '../../catalogue/tasks/task';
import { assertNotCancelled, loadTarget, reply } from '../tool-calls/tool-scope';
import { loadCaller } from '../../runtime/sessions/task-binding';
import { toTaskToolView } from './task-tool-views';

// Writes on tasks: create (top level or under your own task), update and retitle your own task.

const CREATE_TASK = createTaskTool.name;
const UPDATE_TASK = updateTaskTool.name;
const SET_TASK_TITLE = setTaskTitleTool.name;

/** A new task hangs under nothing or under the caller's own task; never under someone else's. */
function parentFor(parentId: string | undefined, caller: Task): string | null {
  if (parentId === undefined) return null;
  if (parentId === 'self' || parentId === caller.id) return caller.id;
  throw new AppError(
    'permission_denied',
    `${CREATE_TASK} creates top-level tasks or subtasks of your own task (parent_id "self"); ${parentId} is not your task`,
    { parent_id: parentId },
  );
}

async function createTask(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(createTaskTool, args);
  assertNotCancelled(context);
  const created = await deps.uow.transaction(async (stores) => {
    const caller = await loadCaller(stores, context);
    const task = await deps.tasks.createWithin(stores, {
      workspace_id: caller.workspaceId,
      title: input.title,
      parent_id: parentFor(input.parent_id, caller),
      // Explicit only: never inherited from the caller or the parent.
      autopilot: input.autopilot ?? false,
      agent_profile_id: input.agent_profile_id,
      description: input.description,
    });
    const prompt =
      input.prompt === undefined
        ? undefined
        : await recordTaskPrompt(stores, {
            taskId: task.id,
            author: taskAuthor(caller.id),
            text: input.prompt,
            metadata: { from_session_id: context.sessionId },
            now: task.createdAt,
          });
    return { details: await deps.tasks.getWithin(stores, task.id), queuedPromptId: prompt?.queued.id ?? null };
  });
  const view = toTaskToolView(created.details);
  const kind = view.parent_id === null ? 'top-level task' : `subtask of ${view.parent_id}`;
  const prompt =
    created.queuedPromptId === null ? 'No prompt was given.' : 'Its prompt is queued for its first session.';
  return reply(
    `Created ${kind} ${view.id} "${view.title}" (autopilot ${view.autopilot}). ${prompt} ` +
      'No agent was started by this call: its session is launched separately.',
    {
      task: view,
      queued_prompt_id: created.queuedPromptId,
      start_agent_requested: input.start_agent ?? true,
      agent_started: false,
    },
  );
}

async function updateTask(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  rejectImmutableTaskFields(args); // a clear "fixed at creation" rather than "unrecognized key"

  const input = parseToolArgs(updateTaskTool, args);
  assertNotCancelled(context);
  const details = await deps.uow.transaction(async (stores) => {
    const { target } = await loadTarget(stores, context, { tool: UPDATE_TASK, scope: 'own', taskId: input.task_id });
    assertWritable(target);
    // The same write and task.updated event as the operator's PATCH (agents skip its transition table).
    const patch = { title: input.title, description: input.description, state: input.state };
    await deps.tasks.writeUpdateWithin(stores, target, patch, deps.clock().toISOString());
    return deps.tasks.getWithin(stores, target.id);
  });
  const view = toTaskToolView(details);
  return reply(`Updated task ${view.id}: [${view.state}] ${view.title}`, { task: view });
}

async function setTaskTitle(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(setTaskTitleTool, args);
  assertNotCancelled(context);
  const result = await deps.uow.transaction(async (stores) => {
    const { target } = await loadTarget(stores, context, { tool: SET_TASK_TITLE, scope: 'own', taskId: undefined });
    assertWritable(target);
    const now = deps.clock().toISOString();
    // The same write and task.updated event as the operator's PATCH of the title, then the
    // conversation's title_change entry.
    await deps.tasks.writeUpdateWithin(stores, target, { title: input.title }, now);
    await stores.messages.insert({
      id: newId(),
      taskId: target.id,
      sessionId: context.sessionId,
      type: 'title_change',
      author: 'agent',
      content: input.title,
      metadata: { previous_title: target.title },
      createdAt: now,
    });
    return { taskId: target.id, previous: target.title };
  });
  return reply(`Task title set to "${input.title}".`, {
    task_id: result.taskId,
    title: input.title,
    previous_title: result.previous,
  });
}

export function createTaskWriteToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return {
    [CREATE_TASK]: (context, args) => createTask(deps, context, args),
    [UPDATE_TASK]: (context, args) => updateTask(deps, context, args),
    [SET_TASK_TITLE]: (context, args) => setTaskTitle(deps, context, args),
  };
}
