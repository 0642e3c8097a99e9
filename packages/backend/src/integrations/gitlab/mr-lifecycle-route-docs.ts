import type { RouteDoc } from '../../platform/openapi/openapi';
import { MrLinkParamsSchema } from './mr-lifecycle-routes';
import { MrLifecycleViewSchema } from './mr-lifecycle-store';

const LIFECYCLE = '`{state, head_sha, polled_at, poll_error, checkpoint, last_evaluation}`';

export const MR_LIFECYCLE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/mrs/:mrId/lifecycle',
    operationId: 'getMergeRequestLifecycle',
    summary: "An MR link's lifecycle",
    params: MrLinkParamsSchema,
    ok: { status: 200, description: `${LIFECYCLE} of the MR link`, schema: MrLifecycleViewSchema },
    errors: { 404: 'an unknown link, or a link of another task' },
  },
  {
    method: 'post',
    path: '/api/tasks/:id/mrs/:mrId/lifecycle/evaluate',
    operationId: 'evaluateMergeRequestLifecycle',
    summary: "Evaluate an MR link's stored state now",
    description:
      'No observation: the reviewers are read once when the rules need them. Records `mr.evaluated` with the ' +
      'lifecycle it left (who asked: the audit trail).',
    params: MrLinkParamsSchema,
    ok: { status: 200, description: `the lifecycle ${LIFECYCLE}`, schema: MrLifecycleViewSchema },
    errors: { 404: 'an unknown link, or a link of another task' },
  },
];
