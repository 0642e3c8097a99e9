import type { RouteDoc } from '../../platform/openapi/openapi';

export const AGENTCTL_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/agentctl',
    summary: "The default executor's agentctl, then every executor's",
    description: '`reachable`: whether the agentctl answers now (probed every second).',
    ok: {
      status: 200,
      description: '`{running, reachable, pid, grpc_address, mcp_url, executors: [{name, kind, ...the same}]}`',
    },
  },
  {
    method: 'get',
    path: '/api/executors',
    summary: 'Every configured executor (what a launch may name) and the default',
    ok: { status: 200, description: '`{default, items: [{name, kind, running, reachable, agentctls}]}`' },
  },
];
