import { Router } from 'express';
import { z } from 'zod';
import { AppError, MAX_PAGE_LIMIT } from '@kandev/protocol';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { readTimeline } from './timeline';

export const TimelineQuerySchema = z
  .object({
    cursor: z.string().min(1).max(512).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
  })
  .strict();

/** Operators read a task's timeline (prompts, tool calls, questions, session history), oldest first. */
export function createTimelineRoutes(deps: { uow: UnitOfWork; clock: () => Date }): Router {
  const router = Router();
  router.get('/api/tasks/:id/timeline', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const query = parseInput(TimelineQuerySchema, req.query, 'query');
    const { uow, clock } = deps;
    if ((await uow.read.tasks.findById(id)) === undefined) throw new AppError('not_found', `task ${id} not found`);
    const page = await readTimeline(uow.read, id, query, clock().toISOString());
    res.json({ task_id: id, entries: page.items, next_cursor: page.nextCursor });
  });
  return router;
}
