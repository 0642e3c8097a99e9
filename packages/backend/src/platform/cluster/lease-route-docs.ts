import type { RouteDoc } from '../openapi/openapi';
import { ReplicasViewSchema } from './lease-routes';

export const REPLICA_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/replicas',
    operationId: 'getReplicas',
    summary: 'This replica, and which replica holds each agentctl’s Attach stream',
    description:
      'With several replicas on PostgreSQL (docs/replicas.md) the `attach` entries are the Attach leases held ' +
      'now, the same from every replica; with one replica, the agentctls it attaches to.',
    ok: {
      status: 200,
      description: '`{replica_id, shared, attach: [{grpc_address, owner, mine, expires_at}]}`',
      schema: ReplicasViewSchema,
    },
  },
];
