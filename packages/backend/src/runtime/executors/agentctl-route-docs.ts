import type { RouteDoc } from '../../platform/openapi/openapi';
import { AgentctlsViewSchema, ExecutorsViewSchema } from './agentctl-routes';

export const AGENTCTL_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/agentctl',
    operationId: 'getAgentctls',
    summary: "The default executor's agentctl, then every executor's",
    description: '`reachable`: whether the agentctl answers now (probed every second).',
    ok: {
      status: 200,
      description: '`{running, reachable, pid, grpc_address, mcp_url, executors: [{name, kind, ...the same}]}`',
      schema: AgentctlsViewSchema,
    },
  },
  {
    method: 'get',
    path: '/api/executors',
    operationId: 'listExecutors',
    summary: 'Every configured executor (what a launch may name) and the default',
    ok: {
      status: 200,
      description: '`{default, items: [{name, kind, running, reachable, agentctls}]}`',
      schema: ExecutorsViewSchema,
    },
  },
];
