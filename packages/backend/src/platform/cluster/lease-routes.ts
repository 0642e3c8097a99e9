import { Router } from 'express';
import type { Knex } from 'knex';
import { z } from 'zod';
import { attachedAgentctlOf, attachLeaseName } from './attach-lease';
import { LeaseStore } from './lease-store';

export const ReplicasViewSchema = z
  .object({
    replica_id: z.string().describe('this backend process (random per start)'),
    shared: z.boolean().describe('whether replicas share the database (PostgreSQL): work is claimed by lease'),
    attach: z
      .array(
        z
          .object({
            grpc_address: z.string(),
            local_to: z
              .string()
              .nullable()
              .describe('the replica whose own local agentctl this is (only it reaches it); null: every replica does'),
            owner: z.string().describe('the replica id that holds the Attach stream'),
            mine: z.boolean(),
            expires_at: z.string().nullable().describe('when the lease runs out unless renewed; null: one replica'),
          })
          .strict(),
      )
      .describe('which replica holds each agentctl’s Attach stream now'),
  })
  .strict()
  .meta({ id: 'Replicas' });
export type ReplicasView = z.infer<typeof ReplicasViewSchema>;

export interface ReplicaRoutesDeps {
  db: Knex;
  replicaId: string;
  shared: boolean;
  clock: () => Date;
  /** One replica: the agentctls it keeps a stream to (all of them are its). */
  attachedAddresses: () => string[];
}

/** GET /api/replicas: this replica and who holds each agentctl's Attach stream (docs/replicas.md). */
export function createReplicaRoutes(deps: ReplicaRoutesDeps): Router {
  const router = Router();
  const store = new LeaseStore(deps.db);
  const prefix = attachLeaseName('');
  router.get('/api/replicas', async (_req, res) => {
    const { replicaId, shared } = deps;
    let attach: ReplicasView['attach'];
    if (shared) {
      const held = await store.listHeld(prefix, deps.clock().getTime());
      attach = held.map((lease) => ({
        grpc_address: attachedAgentctlOf(lease.name).grpcAddress,
        local_to: attachedAgentctlOf(lease.name).localTo,
        owner: lease.owner,
        mine: lease.owner === replicaId,
        expires_at: new Date(lease.expiresAtMs).toISOString(),
      }));
    } else {
      const addresses = [...new Set(deps.attachedAddresses())].sort();
      attach = addresses.map((address) => ({
        grpc_address: address,
        local_to: null,
        owner: replicaId,
        mine: true,
        expires_at: null,
      }));
    }
    const view: ReplicasView = { replica_id: replicaId, shared, attach };
    res.json(view);
  });
  return router;
}
