import { z } from 'zod';
import type { RouteDoc } from '../openapi/openapi';
import { IdParamsSchema } from '../store/id-schema';
import { ApiTokenViewSchema, CreateApiTokenBodySchema, MeViewSchema } from './api-token-routes';

export const API_TOKEN_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/tokens',
    operationId: 'createApiToken',
    summary: 'Create an API token',
    description:
      "A role at or below the caller's, workspaces within the caller's (403 naming what is missing otherwise); an unknown workspace is a 404.",
    body: CreateApiTokenBodySchema,
    ok: {
      status: 201,
      description: 'the token, with `token` itself: the only time it is shown',
      schema: ApiTokenViewSchema.extend({ token: z.string() }).strict().meta({ id: 'CreatedApiToken' }),
    },
  },
  {
    method: 'get',
    path: '/api/tokens',
    operationId: 'listApiTokens',
    summary: 'List API tokens',
    description: 'A token limited to workspaces sees only the tokens within them.',
    ok: {
      status: 200,
      description: 'the active tokens, never a token itself',
      schema: z.object({ tokens: z.array(ApiTokenViewSchema) }).strict(),
    },
  },
  {
    method: 'delete',
    path: '/api/tokens/:id',
    operationId: 'revokeApiToken',
    summary: 'Revoke an API token',
    params: IdParamsSchema,
    ok: { status: 204, description: 'revoked: the token is refused from now on' },
  },
  {
    method: 'get',
    path: '/api/me',
    operationId: 'getMe',
    summary: 'The token this request uses: its role and workspaces',
    ok: { status: 200, description: 'the caller', schema: MeViewSchema },
  },
];
