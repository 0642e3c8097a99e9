import { LEASE_TIMING_DEFAULTS, type LeaseTiming } from '../platform/cluster/attach-lease';
import { DatabaseLeases } from '../platform/cluster/leases';
import { listenerConnectionOf, PgReplicaSignals } from '../platform/cluster/postgres/pg-replica-signals';
import { newReplicaId } from '../platform/cluster/replica-id';
import {
  InProcessReplicaSignals,
  type ReplicaPresence,
  type ReplicaSignals,
} from '../platform/cluster/replica-signals';
import type { Replicas } from '../platform/cluster/replicas';
import { SharedReplicas } from '../platform/cluster/shared-replicas';
import { SingleProcess } from '../platform/cluster/single-process';
import type { Logger } from '../platform/logger/logger';
import { dialectOf } from '../platform/store/database';
import type { BackendConfig, BackendPorts } from './backend-ports';

/**
 * The replica port this backend runs with, picked here once (docs/replicas.md). A database other
 * backends may share (PostgreSQL; tests may share one SQLite file) gets leases in the database and
 * signals to every replica (LISTEN/NOTIFY; in process on SQLite); a database this process owns alone gets
 * SingleProcess, which claims nothing and tells no one else.
 */
export function createReplicas(config: BackendConfig, ports: BackendPorts): Replicas {
  const { db, clock, logger } = ports;
  // Signals handed in carry their replica's id (its presence), which its leases must be held under too.
  const replicaId = ports.replicaId ?? ports.signals?.replicaId ?? newReplicaId();
  const timing: LeaseTiming = {
    ttlMs: config.replicas?.ttlMs ?? LEASE_TIMING_DEFAULTS.ttlMs,
    renewMs: config.replicas?.renewMs ?? LEASE_TIMING_DEFAULTS.renewMs,
  };
  const signalLog = logger.child({ component: 'replica-signals' });
  const onError = (err: unknown) => signalLog.error({ err }, 'a signal listener failed');
  const shared = config.replicas?.shared ?? dialectOf(db) === 'postgres';
  if (!shared) return new SingleProcess(replicaId, { timing, onError });
  const signals = ports.signals ?? sharedSignals(ports, replicaId, signalLog, onError);
  // With presence in the database, a dead replica's leases are taken over at once (not after the TTL).
  const presencePrefix = signals instanceof PgReplicaSignals ? signals.presencePrefix : undefined;
  const leases = new DatabaseLeases({
    db,
    replicaId,
    clock,
    logger: logger.child({ component: 'leases' }),
    presencePrefix,
  });
  return new SharedReplicas({ leases, signals, timing });
}

/** LISTEN/NOTIFY on PostgreSQL; in process where tests run replicas on one SQLite file. */
function sharedSignals(
  ports: BackendPorts,
  replicaId: string,
  logger: Logger,
  onError: (err: unknown) => void,
): ReplicaSignals & ReplicaPresence {
  const { db } = ports;
  if (dialectOf(db) !== 'postgres') return new InProcessReplicaSignals(replicaId, onError);
  return new PgReplicaSignals({ replicaId, db, connection: listenerConnectionOf(db), logger });
}
