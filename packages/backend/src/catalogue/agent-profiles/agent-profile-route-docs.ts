import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import {
  AgentProfileRestViewSchema,
  CreateAgentProfileBodySchema,
  UpdateAgentProfileBodySchema,
} from './agent-profile';

export const AGENT_PROFILE_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/agent-profiles',
    operationId: 'createAgentProfile',
    summary: 'Create an agent profile',
    description:
      'Env keys match `^[A-Z_][A-Z0-9_]*$`; env values are sealed at rest and never returned or logged. ' +
      "`permission_policy` (default `ask`) says how the agent's ACP permission requests are answered " +
      '(docs/agents.md, Permission policy).',
    body: CreateAgentProfileBodySchema,
    ok: { status: 201, description: 'the profile (env keys, never values)', schema: AgentProfileRestViewSchema },
    errors: { 409: 'the name is taken' },
  },
  {
    method: 'get',
    path: '/api/agent-profiles',
    operationId: 'listAgentProfiles',
    summary: 'List agent profiles, by name',
    ok: {
      status: 200,
      description: 'every profile',
      schema: z.object({ agent_profiles: z.array(AgentProfileRestViewSchema) }).strict(),
    },
  },
  {
    method: 'get',
    path: '/api/agent-profiles/:id',
    operationId: 'getAgentProfile',
    summary: 'Get an agent profile',
    params: IdParamsSchema,
    ok: { status: 200, description: 'the profile', schema: AgentProfileRestViewSchema },
  },
  {
    method: 'patch',
    path: '/api/agent-profiles/:id',
    operationId: 'updateAgentProfile',
    summary: 'Edit an agent profile',
    description:
      'Any of `name`, `command`, `args`, `env`, `supports_mcp`, `permission_policy`; all or nothing. `env` is ' +
      'a merge patch (values are write-only: the answer lists `env_keys` only): a string sets a variable, ' +
      '`null` removes it, others are kept. Sessions started from then on carry the change; running sessions ' +
      'keep theirs until resumed. A taken name is a 409, as is `supports_mcp: false` while an autopilot ' +
      'task uses the profile.',
    params: IdParamsSchema,
    body: UpdateAgentProfileBodySchema,
    ok: { status: 200, description: 'the profile', schema: AgentProfileRestViewSchema },
  },
  {
    method: 'delete',
    path: '/api/agent-profiles/:id',
    operationId: 'deleteAgentProfile',
    summary: 'Delete an agent profile',
    params: IdParamsSchema,
    ok: { status: 204, description: 'deleted' },
    errors: { 409: 'a task uses it' },
  },
];
