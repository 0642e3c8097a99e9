import type { RouteDoc } from '../http/openapi';
import { IdParamsSchema } from '../store/id-schema';
import { CreateWorkspaceBodySchema } from './workspace';
import { ListWorkspacesQuerySchema } from './workspace-routes';

const WORKSPACE = '`{id, name, created_at}`';

export const WORKSPACE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/workspaces',
    summary: 'Create a workspace',
    body: CreateWorkspaceBodySchema,
    ok: { status: 201, description: `the workspace ${WORKSPACE}` },
  },
  {
    method: 'get',
    path: '/api/workspaces',
    summary: 'List workspaces, oldest first, a page at a time',
    query: ListWorkspacesQuerySchema,
    ok: { status: 200, description: '`{workspaces: [workspace], next_cursor}`' },
  },
  {
    method: 'get',
    path: '/api/workspaces/:id',
    summary: 'Get a workspace',
    params: IdParamsSchema,
    ok: { status: 200, description: `the workspace ${WORKSPACE}` },
  },
];
