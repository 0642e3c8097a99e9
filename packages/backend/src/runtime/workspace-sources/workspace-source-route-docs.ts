import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import {
  AddWorkspaceSourcesBodySchema,
  SourceBatchViewSchema,
  SourceRemovalViewSchema,
  WorkspaceSourceParamsSchema,
  WorkspaceSourceQuerySchema,
} from './workspace-source';

const REFRESH =
  '`refresh: {status, sessions}`: by default `dispatched` (each changed live session was sent its update; ' +
  'what agentctl acknowledged shows on `GET /api/sessions/:id` as `applied_revision` and in the event ' +
  'stream as `tools.changed`) or `not_needed`; with `?wait=applied` the answer waits for agentctl: ' +
  '`applied`, `not_needed`, `partial` or `failed` (a `reason` per session)';

export const WORKSPACE_SOURCE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/tasks/:id/workspace-sources',
    operationId: 'addWorkspaceSources',
    summary: 'Attach repositories to a task (a batch)',
    description:
      'The batch is validated as a whole and committed in one transaction (one bad source: 400, nothing ' +
      'written). Each live session whose provider set changed is sent its new set (`StreamProviderUpdates` ' +
      'calls of at most 500 sessions, per agentctl). When the task has ' +
      'a workspace, the new repositories are checked out in it (docs/workspaces.md).',
    params: IdParamsSchema,
    query: WorkspaceSourceQuerySchema,
    body: AddWorkspaceSourcesBodySchema,
    ok: {
      status: 201,
      description: `\`{task_id, batch_id, added, providers}\`, ${REFRESH}; 200 instead when nothing was new`,
      schema: SourceBatchViewSchema,
    },
  },
  {
    method: 'delete',
    path: '/api/tasks/:id/workspace-sources/:repository_id',
    operationId: 'removeWorkspaceSource',
    summary: 'Detach a repository from a task',
    description: 'Its folder in the task workspace stays as it is, no longer managed (docs/workspaces.md).',
    params: WorkspaceSourceParamsSchema,
    query: WorkspaceSourceQuerySchema,
    ok: { status: 200, description: `\`{task_id, removed, providers}\`, ${REFRESH}`, schema: SourceRemovalViewSchema },
    errors: { 404: 'the task is unknown or the repository is not attached' },
  },
];
