import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { LinkMrBodySchema, LinkPrBodySchema, TaskMrViewSchema, TaskPrViewSchema } from './review-link';
import {
  CredentialParamsSchema,
  CredentialViewSchema,
  PutCredentialBodySchema,
} from '../../catalogue/credentials/workspace-credential';

export const REVIEW_LINK_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/tasks/:id/prs',
    operationId: 'linkPullRequest',
    summary: 'Link a GitHub pull request to a task',
    params: IdParamsSchema,
    body: LinkPrBodySchema,
    ok: { status: 201, description: 'the PR link', schema: TaskPrViewSchema },
    errors: { 409: 'the repository is not attached to the task, or the PR is linked already' },
  },
  {
    method: 'get',
    path: '/api/tasks/:id/prs',
    operationId: 'listPullRequestLinks',
    summary: "List a task's PR links",
    params: IdParamsSchema,
    ok: {
      status: 200,
      description: "the task's PR links, each with its `automation` switches",
      schema: z.object({ prs: z.array(TaskPrViewSchema) }).strict(),
    },
  },
  {
    method: 'post',
    path: '/api/tasks/:id/mrs',
    operationId: 'linkMergeRequest',
    summary: 'Link a GitLab merge request to a task',
    params: IdParamsSchema,
    body: LinkMrBodySchema,
    ok: { status: 201, description: 'the MR link', schema: TaskMrViewSchema },
    errors: { 409: 'the repository is not attached to the task, or the MR is linked already' },
  },
  {
    method: 'get',
    path: '/api/tasks/:id/mrs',
    operationId: 'listMergeRequestLinks',
    summary: "List a task's MR links",
    params: IdParamsSchema,
    ok: {
      status: 200,
      description: "the task's MR links",
      schema: z.object({ mrs: z.array(TaskMrViewSchema) }).strict(),
    },
  },
];

export const CREDENTIAL_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'put',
    path: '/api/workspaces/:id/credentials/:provider',
    operationId: 'setWorkspaceCredential',
    summary: "Store a workspace's provider credential (write-only)",
    description:
      "A GitLab or GitHub token is verified once with the provider's `GET /user` (400 when it rejects " +
      'the token, 503 when it cannot be reached) and the username (GitHub: login) it reports is stored. ' +
      '`base_url` is for GitLab only (GitHub: `KANDEV_GITHUB_API_URL`). The token is sealed at rest and never returned.',
    params: CredentialParamsSchema,
    body: PutCredentialBodySchema,
    ok: { status: 200, description: 'the stored credential, never its token', schema: CredentialViewSchema },
  },
  {
    method: 'get',
    path: '/api/workspaces/:id/credentials',
    operationId: 'listWorkspaceCredentials',
    summary: "List a workspace's provider credentials",
    params: IdParamsSchema,
    ok: {
      status: 200,
      description: 'the stored credentials, never a token',
      schema: z.object({ credentials: z.array(CredentialViewSchema) }).strict(),
    },
  },
  {
    method: 'delete',
    path: '/api/workspaces/:id/credentials/:provider',
    operationId: 'deleteWorkspaceCredential',
    summary: "Remove a workspace's provider credential",
    params: CredentialParamsSchema,
    ok: { status: 204, description: 'removed' },
    errors: { 404: 'the workspace is unknown or has no credential for the provider' },
  },
];
