import type { Knex } from 'knex';
import type { Logger } from '../logger/logger';
import { LEASE_TIMING_DEFAULTS, type LeaseTiming } from './attach-lease';
import { type ClaimScope, replicaClaims } from './leases';
import { newReplicaId } from './replica-id';

export interface ReplicaOptions {
  db: Knex;
  clock: () => Date;
  logger: Logger;
  /** Default: a fresh newReplicaId(). */
  replicaId?: string;
  /** Default: LEASE_TIMING_DEFAULTS, shared exactly when the database is PostgreSQL. */
  replicas?: Partial<LeaseTiming> & { shared?: boolean };
  /** Replica presence in the database, when there is one (PgReplicaSignals.presencePrefix). */
  presencePrefix?: string;
}

/**
 * This replica's id and claims: leases in the database when replicas share it, and then the scope the
 * components that claim work get (undefined with one replica: they run as they always did).
 */
export function replicaSetup(options: ReplicaOptions) {
  const id = options.replicaId ?? newReplicaId();
  const timing: LeaseTiming = {
    ttlMs: options.replicas?.ttlMs ?? LEASE_TIMING_DEFAULTS.ttlMs,
    renewMs: options.replicas?.renewMs ?? LEASE_TIMING_DEFAULTS.renewMs,
  };
  const { db, clock, logger } = options;
  const { presencePrefix } = options;
  const claims = replicaClaims({ db, clock, logger, replicaId: id, shared: options.replicas?.shared, presencePrefix });
  const scope: ClaimScope | undefined = claims.shared ? { claims, ttlMs: timing.ttlMs } : undefined;
  return { id, claims, timing, scope };
}

export type ReplicaState = ReturnType<typeof replicaSetup>;
