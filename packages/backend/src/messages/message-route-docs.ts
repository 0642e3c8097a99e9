import type { RouteDoc } from '../http/openapi';
import { IdParamsSchema } from '../store/id-schema';
import { MessagesQuerySchema } from './message-routes';

export const MESSAGE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/messages',
    summary: "Read a task's conversation, oldest first, a page at a time",
    description: 'Messages, tool calls, step completions, title changes and the operator prompts.',
    params: IdParamsSchema,
    query: MessagesQuerySchema,
    ok: { status: 200, description: '`{task_id, messages, next_cursor}`' },
  },
];
