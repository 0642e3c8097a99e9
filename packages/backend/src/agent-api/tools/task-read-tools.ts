import { z } from 'zod';
import { getTaskTool, listTaskSessionsTool, listTasksTool } from '@kandev/protocol';
import { toTaskMrView, toTaskPrView } from '../../integrations/provider-automation/review-link';
import { DEFAULT_PAGE_LIMIT, decodeCursor, pageOf } from '../../platform/store/page-cursor';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import { loadTarget, reply } from '../tool-calls/tool-scope';
import { loadCaller } from '../../runtime/sessions/task-binding';
import { pendingActionsOf } from '../../runtime/parent-questions/pending-action';
import { describeFlags, describeTasks, toSessionToolView, toTaskSummaryView, toTaskToolView } from './task-tool-views';

// Reads: any task of the caller's workspace (its own, a child, or another task there); never
// another workspace's.

const LIST_TASKS = listTasksTool.name;
const GET_TASK = getTaskTool.name;
const LIST_TASK_SESSIONS = listTaskSessionsTool.name;

const TaskCursorSchema = z.object({ c: z.string().min(1), i: z.string().min(1) }).strict();

async function listTasks(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(listTasksTool, args);
  const limit = input.limit ?? DEFAULT_PAGE_LIMIT;
  const after = input.cursor === undefined ? undefined : decodeCursor(TaskCursorSchema, input.cursor);
  const stores = deps.uow.read;
  const caller = await loadCaller(stores, context);
  const parent =
    input.parent_id === undefined
      ? undefined
      : (await loadTarget(stores, context, { tool: LIST_TASKS, scope: 'workspace', taskId: input.parent_id })).target;
  const now = deps.clock().toISOString();
  // The tool lists in creation order (its own cursor shape), whatever REST defaults to.
  const rows = await stores.tasks.list({
    workspaceId: caller.workspaceId,
    parentId: parent?.id,
    states: input.state === undefined ? undefined : [input.state],
    includeArchived: input.include_archived ?? false,
    now,
    sort: 'created_asc',
    after: after === undefined ? undefined : { at: after.c, id: after.i },
    limit: limit + 1,
  });
  const page = pageOf(rows, limit, (task) => ({ c: task.createdAt, i: task.id }));
  const ids = page.items.map((task) => task.id);
  const actions = await deps.uow.transaction((trx) => pendingActionsOf(trx, ids, now));
  const views = page.items.map((task) => toTaskSummaryView(task, actions.get(task.id) ?? null));
  const more = page.nextCursor === null ? '' : '\nMore: pass next_cursor.';
  const text = views.length === 0 ? 'No tasks match.' : `${views.length} task(s):\n${describeTasks(views)}${more}`;
  return reply(text, { tasks: views, next_cursor: page.nextCursor });
}

async function getTask(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(getTaskTool, args);
  const stores = deps.uow.read;
  const { target } = await loadTarget(stores, context, { tool: GET_TASK, scope: 'workspace', taskId: input.task_id });
  const view = toTaskToolView(await deps.tasks.get(target.id));
  const prs = (await stores.taskPrs.listByTask(target.id)).map(toTaskPrView);
  const mrs = (await stores.taskMrs.listByTask(target.id)).map(toTaskMrView);
  const providers = view.providers.length === 0 ? 'none' : view.providers.join(', ');
  const text =
    `${view.id} [${describeFlags(view)}] ${view.title}\n` +
    `parent: ${view.parent_id ?? 'none'}; repositories: ${view.repository_ids.length}; providers: ${providers}; ` +
    `PRs: ${prs.map((pr) => `#${pr.number} (${pr.state})`).join(', ') || 'none'}; ` +
    `MRs: ${mrs.map((mr) => `${mr.project_path}!${mr.iid} (${mr.state})`).join(', ') || 'none'}` +
    (view.description === null || view.description === '' ? '' : `\n\n${view.description}`);
  return reply(text, { task: view, prs, mrs });
}

async function listTaskSessions(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(listTaskSessionsTool, args);
  const stores = deps.uow.read;
  const request = { tool: LIST_TASK_SESSIONS, scope: 'workspace' as const, taskId: input.task_id };
  const { target } = await loadTarget(stores, context, request);
  const sessions = (await stores.sessions.listByTask(target.id)).map(toSessionToolView);
  const lines = sessions.map((s) => `${s.id} [${s.state}] ${s.surface}, since ${s.created_at}`);
  const text = sessions.length === 0 ? `Task ${target.id} has no sessions.` : lines.join('\n');
  return reply(text, { task_id: target.id, sessions });
}

export function createTaskReadToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return {
    [LIST_TASKS]: (context, args) => listTasks(deps, context, args),
    [GET_TASK]: (context, args) => getTask(deps, context, args),
    [LIST_TASK_SESSIONS]: (context, args) => listTaskSessions(deps, context, args),
  };
}
