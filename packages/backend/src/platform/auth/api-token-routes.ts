import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/parse';
import { IdParamsSchema } from '../store/id-schema';
import type { ApiTokenRecord } from './api-token-store';
import type { ApiTokenService } from './api-token-service';

export const CreateApiTokenBodySchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();

/** A token as listed: never the token itself (the schema documents it in GET /api/openapi.json). */
export const ApiTokenViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'ApiToken' });

function toView(record: ApiTokenRecord): z.infer<typeof ApiTokenViewSchema> {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
  };
}

export function createApiTokenRoutes(tokens: ApiTokenService): Router {
  const router = Router();
  router.post('/api/tokens', async (req, res) => {
    const { name } = parseInput(CreateApiTokenBodySchema, req.body, 'request body');
    const created = await tokens.create(name);
    // The only time the plaintext leaves the backend.
    res.status(201).json({ ...toView(created), token: created.token });
  });
  router.get('/api/tokens', async (_req, res) => {
    res.json({ tokens: (await tokens.list()).map(toView) });
  });
  router.delete('/api/tokens/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    await tokens.revoke(id);
    res.status(204).end();
  });
  return router;
}
