import { randomUUID } from 'node:crypto';

/**
 * This backend process among the replicas sharing one database: random per process start, so a
 * restarted replica never mistakes a lease its predecessor held for its own (it waits out the TTL, or,
 * on SQLite, holds everything: one process). Not the backend id docker labels use (executors/backend-id).
 */
export function newReplicaId(): string {
  return randomUUID();
}
