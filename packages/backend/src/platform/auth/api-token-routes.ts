import { type Response, Router } from 'express';
import { authenticatedPrincipal, CONFIGURED_PRINCIPAL, type Principal, RoleSchema } from '../access/principal';
import { z } from 'zod';
import { parseInput } from '../http/parse';
import { IdParamsSchema, IdSchema } from '../store/id-schema';
import type { ApiTokenRecord } from './api-token-store';
import { type ApiTokenService, LAST_USED_PRECISION_MS } from './api-token-service';

export const CreateApiTokenBodySchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    role: RoleSchema.default('admin').describe("`admin`, `operator` or `viewer`: at most the caller's own"),
    workspaces: z
      .array(IdSchema)
      .min(1)
      .max(100)
      .nullable()
      .default(null)
      .describe(
        'workspace ids the token is limited to; null or absent: every workspace (only from a token that has them all)',
      ),
  })
  .strict();

/** GET /api/me: the token this request was authenticated with. */
export const MeViewSchema = z
  .object({
    token_id: z.string().nullable().describe('null for a token configured by the operator (KANDEV_API_TOKEN)'),
    name: z.string(),
    role: RoleSchema,
    workspaces: z.array(z.string()).nullable().describe('null: every workspace'),
  })
  .strict()
  .meta({ id: 'Me' });

/** A token as listed: never the token itself (the schema documents it in GET /api/openapi.json). */
export const ApiTokenViewSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    role: RoleSchema,
    workspaces: z.array(z.string()).nullable().describe('null: every workspace'),
    created_by: z
      .string()
      .nullable()
      .describe('the id of the token that created this one; null for the admin token file'),
    created_at: z.string(),
    last_used_at: z
      .string()
      .nullable()
      .describe(`recorded to within ${LAST_USED_PRECISION_MS / 1000} s`),
  })
  .strict()
  .meta({ id: 'ApiToken' });

function toView(record: ApiTokenRecord): z.infer<typeof ApiTokenViewSchema> {
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    role: record.role,
    workspaces: record.workspaces,
    created_by: record.createdBy,
    created_at: record.createdAt,
    last_used_at: record.lastUsedAt,
  };
}

/** Who asks; without a token check (single-router tests) the operator's own full rights. */
function caller(res: Response): Principal {
  return authenticatedPrincipal(res) ?? CONFIGURED_PRINCIPAL;
}

export function createApiTokenRoutes(tokens: ApiTokenService): Router {
  const router = Router();
  router.post('/api/tokens', async (req, res) => {
    const body = parseInput(CreateApiTokenBodySchema, req.body, 'request body');
    const created = await tokens.mint(caller(res), body);
    // The only time the plaintext leaves the backend.
    res.status(201).json({ ...toView(created), token: created.token });
  });
  router.get('/api/tokens', async (_req, res) => {
    res.json({ tokens: (await tokens.list(caller(res))).map(toView) });
  });
  router.delete('/api/tokens/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    await tokens.revoke(id, caller(res));
    res.status(204).end();
  });
  router.get('/api/me', (_req, res) => {
    const me = caller(res);
    res.json({ token_id: me.tokenId, name: me.name, role: me.role, workspaces: me.workspaces });
  });
  return router;
}
