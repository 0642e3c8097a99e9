import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateTaskBodySchema, ListTasksQuerySchema, TaskViewSchema, UpdateTaskBodySchema } from './task';

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
    errors: { 404: 'an unknown workspace, parent, repository or agent profile' },
  },
  {
    method: 'get',
    path: '/api/tasks',
    operationId: 'listTasks',
    summary: "List a workspace's tasks, oldest first, a page at a time",
    description: 'Archived tasks only with `include_archived=true`.',
    query: ListTasksQuerySchema,
    ok: {
      status: 200,
      description: 'a page of tasks',
      schema: z
        .object({ tasks: z.array(TaskViewSchema), next_cursor: z.string().nullable() })
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
    summary: "Change a task's title or parent",
    description: '`autopilot` is fixed at creation (400).',
    params: IdParamsSchema,
    body: UpdateTaskBodySchema,
    ok: { status: 200, description: TASK, schema: TaskViewSchema },
  },
];
