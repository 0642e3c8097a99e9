import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { IdSchema } from '../store/id-schema';
import type { EventStreams } from './event-stream';

/** An event id as a client sends it back: a decimal string (what every frame's `id:` holds). */
const EventIdSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, 'must be a decimal event id')
  .transform(Number);

const EventsQuerySchema = z
  .object({ task_id: IdSchema.optional(), session_id: IdSchema.optional(), after: EventIdSchema.optional() })
  .strict();

function parse<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `;
  throw new AppError('invalid_argument', `invalid ${what}: ${where}${issue?.message ?? 'unexpected value'}`);
}

/**
 * GET /api/events (docs/events.md): Server-Sent Events, optionally for one task and/or session,
 * resumed with `Last-Event-ID` (or `?after=` on a first connect). Bad input is a 400 before anything
 * is streamed.
 */
export function createEventRoutes(streams: EventStreams): Router {
  const router = Router();
  router.get('/api/events', async (req, res) => {
    const query = parse(EventsQuerySchema, req.query, 'query');
    const header = req.header('last-event-id')?.trim();
    const lastEventId =
      header === undefined || header === '' ? undefined : parse(EventIdSchema, header, 'Last-Event-ID');
    await streams.serve(req, res, {
      filter: { taskId: query.task_id, sessionId: query.session_id },
      resumeAfter: lastEventId ?? query.after,
    });
  });
  return router;
}
