import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { TimelineEntryViewSchema } from './timeline-entry';
import { TimelineQuerySchema } from './timeline-routes';

export const TimelineResponseSchema = z
  .object({
    task_id: z.string(),
    entries: z.array(TimelineEntryViewSchema),
    next_cursor: z.string().nullable().describe('null on the last page; pass it as `cursor` for the next one'),
  })
  .strict()
  .meta({ id: 'TimelinePage' });

export const TIMELINE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/timeline',
    operationId: 'listTimeline',
    summary: "Read a task's timeline, oldest first, a page at a time",
    description:
      "What happened in each of the task's sessions, each entry with its `session_id` and `at` (when it began, " +
      "ISO 8601 with date), ordered by `at`. `kind`: `prompt` (queued → delivered → the turn's outcome, " +
      '`duration_ms` of the turn), `tool_call` (arguments, result summary, status, `duration_ms`), `question` ' +
      '(operator questions and permission requests, with the answers, who gave them and when; kept after ' +
      "answering), `parent_question` (an autopilot task's question to its parent, with the accepted answer), " +
      '`state_change` (a session state and the one before), `tools_revision` (an acknowledged ' +
      'tool list that changed: revision, added and removed names). An entry keeps its place; what happens later ' +
      '(delivered, answered, finished) fills it in, so re-read a page to refresh it. The last page has ' +
      '`next_cursor: null`; new entries appear at the end (re-read with the cursor that led to the last page).',
    params: IdParamsSchema,
    query: TimelineQuerySchema,
    ok: { status: 200, description: '`{task_id, entries, next_cursor}`', schema: TimelineResponseSchema },
  },
];
