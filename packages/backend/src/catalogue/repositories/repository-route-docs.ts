import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { z } from 'zod';
import { CreateRepositoryBodySchema, ListRepositoriesQuerySchema, RepositoryViewSchema } from './repository';

export const REPOSITORY_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/repositories',
    operationId: 'createRepository',
    summary: 'Register a repository in a workspace',
    description:
      'Give `remote_url` or `local_path`. `provider` (`github`, `gitlab` or `null`) is derived once at ' +
      'registration from the remote host, unless given (trimmed and lowercased; blank is ignored, unknown means none).',
    body: CreateRepositoryBodySchema,
    ok: { status: 201, description: 'the repository, with its `provider`', schema: RepositoryViewSchema },
  },
  {
    method: 'get',
    path: '/api/repositories',
    operationId: 'listRepositories',
    summary: 'List repositories, optionally of one workspace',
    query: ListRepositoriesQuerySchema,
    ok: {
      status: 200,
      description: 'a page of repositories, oldest first',
      schema: z
        .object({ repositories: z.array(RepositoryViewSchema), next_cursor: z.string().nullable() })
        .strict()
        .meta({ id: 'RepositoryPage' }),
    },
  },
  {
    method: 'get',
    path: '/api/repositories/:id',
    operationId: 'getRepository',
    summary: 'Get a repository',
    params: IdParamsSchema,
    ok: { status: 200, description: 'the repository', schema: RepositoryViewSchema },
  },
];
