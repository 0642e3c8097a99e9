import type { RouteDoc } from '../http/openapi';
import { IdParamsSchema } from '../store/id-schema';
import { CreateAgentProfileBodySchema } from './agent-profile';

const PROFILE = '`{id, name, command, args, env_keys, supports_mcp, created_at}`';

export const AGENT_PROFILE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/agent-profiles',
    summary: 'Create an agent profile',
    description: 'Env keys match `^[A-Z_][A-Z0-9_]*$`; env values are sealed at rest and never returned or logged.',
    body: CreateAgentProfileBodySchema,
    ok: { status: 201, description: `the profile ${PROFILE}` },
    errors: { 409: 'the name is taken' },
  },
  {
    method: 'get',
    path: '/api/agent-profiles',
    summary: 'List agent profiles, by name',
    ok: { status: 200, description: '`{agent_profiles: [profile]}`' },
  },
  {
    method: 'get',
    path: '/api/agent-profiles/:id',
    summary: 'Get an agent profile',
    params: IdParamsSchema,
    ok: { status: 200, description: `the profile ${PROFILE}` },
  },
  {
    method: 'delete',
    path: '/api/agent-profiles/:id',
    summary: 'Delete an agent profile',
    params: IdParamsSchema,
    ok: { status: 204, description: 'deleted' },
    errors: { 409: 'a task uses it' },
  },
];
