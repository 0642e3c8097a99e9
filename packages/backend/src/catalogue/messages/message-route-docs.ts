import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { MessageViewSchema } from './message';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { MessagesQuerySchema } from './message-routes';

export const MESSAGE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/messages',
    operationId: 'listMessages',
    summary: "Read a task's conversation, oldest first, a page at a time",
    description:
      'Each entry has a `type`: `message` (operator prompts and agent text; an agent run of text grows ' +
      'while it streams), `tool_call` (metadata: `status`, `kind`, `input`, `output`, `diffs` ' +
      '`[{path, old_text, new_text, truncated}]`, `finished_at` once it completed or failed), `plan` (one per turn, rewritten as the agent updates ' +
      'it; metadata `entries` `[{content, priority, status}]`), `session_event` (an agent exit, or a ' +
      'notice: metadata `{event: "agent_notice", code, level}`), `step_complete`, `title_change`, ' +
      '`task_stopped`, `parent_question`, `parent_answer`.',
    params: IdParamsSchema,
    query: MessagesQuerySchema,
    ok: {
      status: 200,
      description: '`{task_id, messages, next_cursor}`',
      schema: z
        .object({ task_id: z.string(), messages: z.array(MessageViewSchema), next_cursor: z.string().nullable() })
        .strict()
        .meta({ id: 'MessagePage' }),
    },
  },
];
