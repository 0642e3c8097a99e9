import type { RouteDoc } from '../../platform/openapi/openapi';
import { PrLinkParamsSchema } from './pr-lifecycle-routes';
import { PrLifecycleViewSchema } from './pr-lifecycle-store';

export const PR_LIFECYCLE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/prs/:prId/lifecycle',
    operationId: 'getPullRequestLifecycle',
    summary: "A PR link's lifecycle",
    description:
      'The last poll (`polled_at`, `poll_error`), the transition checkpoint, the last evaluation and the ' +
      'last auto-merge outcome (`merge`: `{at, head_sha, result: merged | refused | waiting, reason, by_github}`).',
    params: PrLinkParamsSchema,
    ok: {
      status: 200,
      description: '`{state, head_sha, polled_at, poll_error, checkpoint, last_evaluation, merge}` of the PR link',
      schema: PrLifecycleViewSchema,
    },
    errors: { 404: 'an unknown link, or a link of another task' },
  },
];
