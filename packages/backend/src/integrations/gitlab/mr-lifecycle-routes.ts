import { Router } from 'express';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseInput } from '../../platform/http/parse';
import { IdSchema } from '../../platform/store/id-schema';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { MrEvaluator } from './mr-evaluator';

export const MrLinkParamsSchema = z.object({ id: IdSchema, mrId: IdSchema }).strict();

/**
 * GET: an MR link's lifecycle (state, last poll and its error, checkpoint, last evaluation).
 * POST .../evaluate: evaluates the link's stored state now, without an observation (the evaluator
 * reads the reviewers once itself when the rules need them); `mr.evaluated` records that it was asked
 * for (by whom: the audit trail) with the lifecycle it left.
 */
export function createMrLifecycleRoutes(deps: { uow: UnitOfWork; evaluator: MrEvaluator; clock?: () => Date }): Router {
  const clock = deps.clock ?? (() => new Date());
  const router = Router();
  const view = async (taskId: string, mrId: string) => {
    const found = await deps.uow.read.mrLifecycle.view(taskId, mrId);
    if (found === undefined) throw new AppError('not_found', `merge request link ${mrId} of task ${taskId} not found`);
    return found;
  };
  router.get('/api/tasks/:id/mrs/:mrId/lifecycle', async (req, res) => {
    const { id, mrId } = parseInput(MrLinkParamsSchema, req.params, 'path');
    res.json(await view(id, mrId));
  });
  router.post('/api/tasks/:id/mrs/:mrId/lifecycle/evaluate', async (req, res) => {
    const { id, mrId } = parseInput(MrLinkParamsSchema, req.params, 'path');
    const current = await view(id, mrId);
    const target = await deps.uow.read.mrLifecycle.findTarget(mrId);
    if (target === undefined) throw new AppError('not_found', `merge request link ${mrId} not found`);
    await deps.evaluator.handle({
      ...target,
      state: current.state,
      headSha: current.head_sha,
      reviewers: { valid: false },
    });
    const lifecycle = await view(id, mrId);
    await deps.uow.transaction((stores) =>
      stores.events.append({
        type: 'mr.evaluated',
        taskId: id,
        sessionId: null,
        data: { mr_link_id: mrId, lifecycle },
        at: clock().toISOString(),
      }),
    );
    res.json(lifecycle);
  });
  return router;
}
