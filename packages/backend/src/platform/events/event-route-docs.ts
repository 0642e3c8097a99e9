import { z } from 'zod';
import type { RouteDoc } from '../openapi/openapi';
import { EventIdSchema, EventsQuerySchema } from './event-routes';
import { STREAM_RETRY_MS } from './event-stream';

export const EVENT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/events',
    operationId: 'streamEvents',
    summary: 'Live events as Server-Sent Events',
    description:
      'Conversation entries, session state, tool-list changes, questions, queue and MR lifecycle ' +
      "(docs/events.md). Optionally for one task, session and/or workspace (through the event's task) and " +
      'some event types. `Last-Event-ID` (or `after` on a first connect) replays the retained events after ' +
      'that id; an id older than the retained log gets one `reset` event instead. Then one `stream.head` ' +
      `frame (with \`retry: ${STREAM_RETRY_MS}\`) whose id is the log's head (0 on an empty log), so a ` +
      'client that got no event yet can resume from it, then events live. A `: ping` comment every 15 s.',
    query: EventsQuerySchema,
    headers: z.object({ 'Last-Event-ID': EventIdSchema.optional() }),
    ok: {
      status: 200,
      description: 'the event stream',
      contentType: 'text/event-stream',
      schema: z
        .string()
        .describe('Server-Sent Events: `id`, `event` and a JSON `data` line per event (docs/events.md)'),
    },
    errors: {
      404: 'unknown task_id, session_id or workspace_id',
      503: 'too many open streams (KANDEV_EVENT_MAX_STREAMS)',
    },
  },
];
