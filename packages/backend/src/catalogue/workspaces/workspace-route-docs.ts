import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateWorkspaceBodySchema, WorkspaceViewSchema } from './workspace';
import { ListWorkspacesQuerySchema } from './workspace-routes';

const PAGE = z
  .object({ workspaces: z.array(WorkspaceViewSchema), next_cursor: z.string().nullable() })
  .strict()
  .meta({ id: 'WorkspacePage' });

export const WORKSPACE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/workspaces',
    operationId: 'createWorkspace',
    summary: 'Create a workspace',
    body: CreateWorkspaceBodySchema,
    ok: { status: 201, description: 'the workspace', schema: WorkspaceViewSchema },
  },
  {
    method: 'get',
    path: '/api/workspaces',
    operationId: 'listWorkspaces',
    summary: 'List workspaces, oldest first, a page at a time',
    query: ListWorkspacesQuerySchema,
    ok: { status: 200, description: 'a page of workspaces', schema: PAGE },
  },
  {
    method: 'get',
    path: '/api/workspaces/:id',
    operationId: 'getWorkspace',
    summary: 'Get a workspace',
    params: IdParamsSchema,
    ok: { status: 200, description: 'the workspace', schema: WorkspaceViewSchema },
  },
];
