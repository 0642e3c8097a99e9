import { Router } from 'express';
import { z } from 'zod';
import { authenticatedPrincipal, workspaceScope } from '../access/principal';
import { parseInput } from '../http/parse';
import { IdSchema } from '../store/id-schema';
import type { EventStreams, StreamGuard } from './event-stream';
import { ADMIN_EVENT_TYPES, EVENT_TYPES } from './event-types';

/** An event id as a client sends it back: a decimal string (what every frame's `id:` holds). */
export const EventIdSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, 'must be a decimal event id')
  .transform(Number);

const EventTypeParamSchema = z.enum(EVENT_TYPES, {
  error: (issue) => `unknown event type ${JSON.stringify(issue.input)}; known: ${EVENT_TYPES.join(', ')}`,
});

/** `type=a,b` and `type=a&type=b` alike: one or more event types. */
export const EventTypesQuerySchema = z
  .union([z.string(), z.array(z.string())])
  .describe(`event types, comma-separated or repeated: ${EVENT_TYPES.join(', ')}`)
  .transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((part) => part.split(','))
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  )
  .pipe(z.array(EventTypeParamSchema).min(1, 'name at least one event type'));

export const EventsQuerySchema = z
  .object({
    task_id: IdSchema.optional(),
    session_id: IdSchema.optional(),
    workspace_id: IdSchema.optional(),
    type: EventTypesQuerySchema.optional(),
    after: EventIdSchema.optional(),
  })
  .strict();

/**
 * GET /api/events (docs/events.md): Server-Sent Events, optionally for one task, session or workspace
 * and some event types, resumed with `Last-Event-ID` (or `?after=` on a first connect). Bad input is a
 * 400 and an unknown task, session or workspace a 404, before anything is streamed.
 */
export function createEventRoutes(streams: EventStreams, guard?: StreamGuard): Router {
  const router = Router();
  router.get('/api/events', async (req, res) => {
    const query = parseInput(EventsQuerySchema, req.query, 'query');
    const header = req.header('last-event-id')?.trim();
    const lastEventId =
      header === undefined || header === '' ? undefined : parseInput(EventIdSchema, header, 'Last-Event-ID');
    await streams.serve(
      req,
      res,
      {
        filter: {
          taskId: query.task_id,
          sessionId: query.session_id,
          workspaceId: query.workspace_id,
          types: query.type === undefined ? undefined : [...new Set(query.type)],
          workspaceIds: workspaceScope(res) ?? undefined,
          // Token and sign-in link changes: an admin's stream only (no token check: none hidden).
          hiddenTypes: (authenticatedPrincipal(res)?.role ?? 'admin') === 'admin' ? undefined : ADMIN_EVENT_TYPES,
        },
        resumeAfter: lastEventId ?? query.after,
      },
      guard,
    );
  });
  return router;
}
