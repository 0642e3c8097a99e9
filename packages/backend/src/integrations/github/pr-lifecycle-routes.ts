import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseInput } from '../../platform/http/parse';
import { IdSchema } from '../../platform/store/id-schema';
import type { UnitOfWork } from '../../platform/store/unit-of-work';

export const PrLinkParamsSchema = z.object({ id: IdSchema, prId: IdSchema }).strict();

/** GET: a PR link's lifecycle (state, last poll and its error, checkpoint, last evaluation, auto-merge outcome). */
export function createPrLifecycleRoutes(deps: { uow: UnitOfWork }): Router {
  const router = Router();
  router.get('/api/tasks/:id/prs/:prId/lifecycle', async (req, res) => {
    const { id, prId } = parseInput(PrLinkParamsSchema, req.params, 'path');
    const found = await deps.uow.read.prLifecycle.view(id, prId);
    if (found === undefined) throw new AppError('not_found', `pull request link ${prId} of task ${id} not found`);
    res.json(found);
  });
  return router;
}
