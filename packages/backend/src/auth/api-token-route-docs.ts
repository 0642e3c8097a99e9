import type { RouteDoc } from '../http/openapi';
import { IdParamsSchema } from '../store/id-schema';
import { CreateApiTokenBodySchema } from './api-token-routes';

export const API_TOKEN_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/tokens',
    summary: 'Create an API token',
    body: CreateApiTokenBodySchema,
    ok: {
      status: 201,
      description: '`{id, name, prefix, created_at, last_used_at, token}`: the only time the token is shown',
    },
  },
  {
    method: 'get',
    path: '/api/tokens',
    summary: 'List API tokens',
    ok: { status: 200, description: '`{tokens: [{id, name, prefix, created_at, last_used_at}]}`, never a token' },
  },
  {
    method: 'delete',
    path: '/api/tokens/:id',
    summary: 'Revoke an API token',
    params: IdParamsSchema,
    ok: { status: 204, description: 'revoked: the token is refused from now on' },
  },
];
