import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { toRepositoryView } from '../../catalogue/repositories/repository';
import { IdParamsSchema } from '../../platform/store/id-schema';
import {
  AddWorkspaceSourcesBodySchema,
  type SourceBatchView,
  type SourceRemovalView,
  toAddedSourceView,
  toRefreshView,
  WorkspaceSourceParamsSchema,
  WorkspaceSourceQuerySchema,
} from './workspace-source';
import type { WorkspaceSourceService } from './workspace-source-service';

export function createWorkspaceSourceRoutes(sources: WorkspaceSourceService): Router {
  const router = Router();
  router.post('/api/tasks/:id/workspace-sources', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const { wait } = parseInput(WorkspaceSourceQuerySchema, req.query, 'query');
    const body = parseInput(AddWorkspaceSourcesBodySchema, req.body, 'request body');
    const batch = await sources.add(id, body, wait);
    const view: SourceBatchView = {
      task_id: batch.taskId,
      batch_id: batch.batchId,
      added: batch.added.map((a) => toAddedSourceView(a.repository, a.baseBranch)),
      providers: batch.providers,
      refresh: toRefreshView(batch.refresh),
    };
    res.status(view.added.length > 0 ? 201 : 200).json(view);
  });
  router.delete('/api/tasks/:id/workspace-sources/:repository_id', async (req, res) => {
    const params = parseInput(WorkspaceSourceParamsSchema, req.params, 'path');
    const { wait } = parseInput(WorkspaceSourceQuerySchema, req.query, 'query');
    const removal = await sources.remove(params.id, params.repository_id, wait);
    const view: SourceRemovalView = {
      task_id: removal.taskId,
      removed: toRepositoryView(removal.removed),
      providers: removal.providers,
      refresh: toRefreshView(removal.refresh),
    };
    res.json(view);
  });
  return router;
}
