import { Router } from 'express';
import { z } from 'zod';
import { MAX_PAGE_LIMIT } from '@kandev/protocol';
import { workspaceScope } from '../../platform/access/principal';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateWorkspaceBodySchema, toWorkspaceView } from './workspace';
import type { WorkspaceService } from './workspace-service';

export const ListWorkspacesQuerySchema = z
  .object({
    cursor: z.string().min(1).max(512).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
  })
  .strict();

export function createWorkspaceRoutes(workspaces: WorkspaceService): Router {
  const router = Router();
  router.post('/api/workspaces', async (req, res) => {
    const body = parseInput(CreateWorkspaceBodySchema, req.body, 'request body');
    res.status(201).json(toWorkspaceView(await workspaces.create(body)));
  });
  router.get('/api/workspaces', async (req, res) => {
    const query = parseInput(ListWorkspacesQuerySchema, req.query, 'query');
    const page = await workspaces.list(query, workspaceScope(res));
    res.json({ workspaces: page.items.map(toWorkspaceView), next_cursor: page.nextCursor });
  });
  router.get('/api/workspaces/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json(toWorkspaceView(await workspaces.get(id)));
  });
  return router;
}
