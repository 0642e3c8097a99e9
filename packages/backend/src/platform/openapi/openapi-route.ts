import { Router } from 'express';
import type { OpenApiDocument } from './openapi';

/** GET /api/openapi.json: under /api, so behind the same token as every other /api route. */
export function createOpenApiRoutes(document: OpenApiDocument): Router {
  const router = Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.json(document);
  });
  return router;
}
