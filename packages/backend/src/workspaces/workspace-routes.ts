import { Router } from 'express';
import { parseInput } from '../http/parse';
import { IdParamsSchema } from '../store/id-schema';
import { CreateWorkspaceBodySchema, toWorkspaceView } from './workspace';
import type { WorkspaceService } from './workspace-service';

export function createWorkspaceRoutes(workspaces: WorkspaceService): Router {
  const router = Router();
  router.post('/api/workspaces', async (req, res) => {
    const body = parseInput(CreateWorkspaceBodySchema, req.body, 'request body');
    res.status(201).json(toWorkspaceView(await workspaces.create(body)));
  });
  router.get('/api/workspaces/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json(toWorkspaceView(await workspaces.get(id)));
  });
  return router;
}
