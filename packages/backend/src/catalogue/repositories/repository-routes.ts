import { Router } from 'express';
import { workspaceScope } from '../../platform/access/principal';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateRepositoryBodySchema, ListRepositoriesQuerySchema, toRepositoryView } from './repository';
import type { RepositoryService } from './repository-service';

export function createRepositoryRoutes(repositories: RepositoryService): Router {
  const router = Router();
  router.post('/api/repositories', async (req, res) => {
    const body = parseInput(CreateRepositoryBodySchema, req.body, 'request body');
    res.status(201).json(toRepositoryView(await repositories.create(body)));
  });
  router.get('/api/repositories', async (req, res) => {
    const query = parseInput(ListRepositoriesQuerySchema, req.query, 'query');
    const page = await repositories.list(query, workspaceScope(res));
    res.json({ repositories: page.items.map(toRepositoryView), next_cursor: page.nextCursor });
  });
  router.get('/api/repositories/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json(toRepositoryView(await repositories.get(id)));
  });
  return router;
}
