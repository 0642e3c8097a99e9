import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { PermissionGrantViewSchema } from './grant';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { GrantParamsSchema } from './grant-routes';

const GRANT = 'with `id`, `task_id`, `tool_kind`, `title`, `granted_by`, `session_id`, `created_at`';

export const PERMISSION_GRANT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/permission-grants',
    operationId: 'listPermissionGrants',
    summary: "List a task's permission grants, oldest first",
    description:
      'A grant is recorded when a permission request is answered with an "allow always" option; a later ' +
      'request of the same task with exactly the same tool kind and title is then allowed once, at once, ' +
      'without a question (docs/agents.md, "Permission policy"). `granted_by` is `operator` or ' +
      '`task:<parent task id>`.',
    params: IdParamsSchema,
    ok: {
      status: 200,
      description: `\`{task_id, permission_grants: [grant]}\`; a grant is an object ${GRANT}`,
      schema: z
        .object({ task_id: z.string(), permission_grants: z.array(PermissionGrantViewSchema) })
        .strict()
        .meta({ id: 'PermissionGrantList' }),
    },
  },
  {
    method: 'delete',
    path: '/api/tasks/:id/permission-grants/:grant_id',
    operationId: 'revokePermissionGrant',
    summary: 'Revoke a permission grant',
    description: 'The next matching request is asked again.',
    params: GrantParamsSchema,
    ok: { status: 204, description: 'revoked' },
    errors: { 404: 'the task has no such grant' },
  },
];
