import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateTaskBodySchema, TaskListItemViewSchema, TaskViewSchema, UpdateTaskBodySchema } from './task';
import { ListTasksQuerySchema } from './task-list';
import { EmptyBodySchema } from './task-routes';
import { TASK_STATE_TRANSITIONS } from './task-state-change';

const MOVES = Object.entries(TASK_STATE_TRANSITIONS)
  .map(([from, to]) => `${from} → ${to.join(' | ')}`)
  .join('; ');

const TASK =
  'the task; `pending_action` is `"clarification"` while it waits for an answer from its parent or the ' +
  'operator, else `null`';

export const TASK_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/tasks',
    operationId: 'createTask',
    summary: 'Create a task',
    description:
      '`autopilot` defaults to false and is never inherited. An unknown `agent_profile_id` is a 404; ' +
      '`autopilot: true` with a profile whose `supports_mcp` is false is a 400, nothing written.',
    body: CreateTaskBodySchema,
    ok: { status: 201, description: TASK, schema: TaskViewSchema },
    errors: {
      404: 'an unknown workspace, parent, repository or agent profile (a parent or repository of another workspace is unknown)',
    },
  },
  {
    method: 'get',
    path: '/api/tasks',
    operationId: 'listTasks',
    summary: "List a workspace's tasks, newest first, a page at a time",
    description:
      'Archived tasks only with `include_archived=true`. `sort` is `created_desc` (default), `created_asc`, ' +
      '`updated_desc` or `updated_asc`; pass `next_cursor` back with the same query for the next page (a ' +
      'cursor from another sort is a 400). `q` matches a title containing the text, case-insensitive (ASCII ' +
      'letters on SQLite). Filters combine with AND: `state` (comma-separated), `autopilot`, `provider`, ' +
      '`pending_question`, `failed`. Each item carries `attention`, what its board card badges.',
    query: ListTasksQuerySchema,
    ok: {
      status: 200,
      description: 'a page of tasks, each with `attention`',
      schema: z
        .object({ tasks: z.array(TaskListItemViewSchema), next_cursor: z.string().nullable() })
        .strict()
        .meta({ id: 'TaskPage' }),
    },
  },
  {
    method: 'get',
    path: '/api/tasks/:id',
    operationId: 'getTask',
    summary: 'Get a task',
    params: IdParamsSchema,
    ok: { status: 200, description: TASK, schema: TaskViewSchema },
  },
  {
    method: 'patch',
    path: '/api/tasks/:id',
    operationId: 'updateTask',
    summary: "Change a task's title, parent or state",
    description:
      '`autopilot` is fixed at creation (400). An operator moves `state` only along these moves: ' +
      `${MOVES}; the same state is no change. Any other move, or a state change on an archived task, is a ` +
      '409 naming `from` and `to` (nothing changes). A change records one `task.updated` event; a state move ' +
      'adds `data.change.state: {from, to}`.',
    params: IdParamsSchema,
    body: UpdateTaskBodySchema,
    ok: { status: 200, description: TASK, schema: TaskViewSchema },
    errors: { 409: 'a state move the table does not allow, or the task is archived' },
  },
  {
    method: 'post',
    path: '/api/tasks/:id/unarchive',
    operationId: 'unarchiveTask',
    summary: 'Unarchive a task',
    description:
      'Clears `archived_at`: the task is listed again and takes launches and prompts (a `task.updated` event ' +
      'with `data.change.archived: {from: true, to: false}`). Its sessions stay as archiving left them; the ' +
      'next launch makes a fresh workspace. A task that is not archived is returned unchanged.',
    params: IdParamsSchema,
    body: EmptyBodySchema,
    ok: { status: 200, description: TASK, schema: TaskViewSchema },
  },
];
