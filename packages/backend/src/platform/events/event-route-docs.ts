import { z } from 'zod';
import type { RouteDoc } from '../openapi/openapi';
import { EventIdSchema, EventsQuerySchema } from './event-routes';

export const EVENT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/events',
    summary: 'Live events as Server-Sent Events',
    description:
      'Conversation entries, session state, tool-list changes, questions, queue and MR lifecycle ' +
      '(docs/events.md). Optionally for one task and/or session. `Last-Event-ID` (or `after` on a first ' +
      'connect) replays the retained events after that id, then continues live; an id older than the ' +
      'retained log gets one `reset` event. A `: ping` comment every 15 s.',
    query: EventsQuerySchema,
    headers: z.object({ 'Last-Event-ID': EventIdSchema.optional() }),
    ok: { status: 200, description: 'the event stream', contentType: 'text/event-stream' },
    errors: { 503: 'too many open streams (KANDEV_EVENT_MAX_STREAMS)' },
  },
];
