import { Router } from 'express';
import { z } from 'zod';
import { AppError, MAX_PAGE_LIMIT } from '@kandev/protocol';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { readConversation } from './conversation';
import { toMessageView } from './message';

export const MessagesQuerySchema = z
  .object({
    cursor: z.string().min(1).max(512).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
  })
  .strict();

/** Operators read a task's conversation (what agents wrote with the tools), oldest first, a page at a time. */
export function createMessageRoutes(uow: UnitOfWork): Router {
  const router = Router();
  router.get('/api/tasks/:id/messages', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const query = parseInput(MessagesQuerySchema, req.query, 'query');
    if ((await uow.read.tasks.findById(id)) === undefined) throw new AppError('not_found', `task ${id} not found`);
    const page = await readConversation(uow.read, id, query);
    res.json({ task_id: id, messages: page.items.map(toMessageView), next_cursor: page.nextCursor });
  });
  return router;
}
