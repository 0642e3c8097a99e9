import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/parse';
import { IdSchema } from '../store/id-schema';
import type { EventStreams } from './event-stream';

/** An event id as a client sends it back: a decimal string (what every frame's `id:` holds). */
export const EventIdSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, 'must be a decimal event id')
  .transform(Number);

export const EventsQuerySchema = z
  .object({ task_id: IdSchema.optional(), session_id: IdSchema.optional(), after: EventIdSchema.optional() })
  .strict();

/**
 * GET /api/events (docs/events.md): Server-Sent Events, optionally for one task and/or session,
 * resumed with `Last-Event-ID` (or `?after=` on a first connect). Bad input is a 400 before anything
 * is streamed.
 */
export function createEventRoutes(streams: EventStreams): Router {
  const router = Router();
  router.get('/api/events', async (req, res) => {
    const query = parseInput(EventsQuerySchema, req.query, 'query');
    const header = req.header('last-event-id')?.trim();
    const lastEventId =
      header === undefined || header === '' ? undefined : parseInput(EventIdSchema, header, 'Last-Event-ID');
    await streams.serve(req, res, {
      filter: { taskId: query.task_id, sessionId: query.session_id },
      resumeAfter: lastEventId ?? query.after,
    });
  });
  return router;
}
