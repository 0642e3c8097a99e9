import type { RouteDoc } from '../http/openapi';
import { IdParamsSchema } from '../store/id-schema';
import { CreateRepositoryBodySchema, RepositoryViewSchema } from './repository';

export const REPOSITORY_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/repositories',
    summary: 'Register a repository in a workspace',
    description:
      'Give `remote_url` or `local_path`. `provider` (`github`, `gitlab` or `null`) is derived once at ' +
      'registration from the remote host, unless given (trimmed and lowercased; blank is ignored, unknown means none).',
    body: CreateRepositoryBodySchema,
    ok: { status: 201, description: 'the repository, with its `provider`', schema: RepositoryViewSchema },
  },
  {
    method: 'get',
    path: '/api/repositories/:id',
    summary: 'Get a repository',
    params: IdParamsSchema,
    ok: { status: 200, description: 'the repository', schema: RepositoryViewSchema },
  },
];
