import type { Knex } from 'knex';
import type { Logger } from '../logger/logger';
import { dialectOf } from '../store/database';
import { listenerConnectionOf, PgReplicaSignals } from './postgres/pg-replica-signals';
import { InProcessReplicaSignals, type ReplicaPresence, type ReplicaSignals } from './replica-signals';

/** The signals a database calls for: LISTEN/NOTIFY on PostgreSQL, in process on SQLite (one process). */
export function replicaSignalsFor(db: Knex, replicaId: string, logger: Logger): ReplicaSignals & ReplicaPresence {
  const log = logger.child({ component: 'replica-signals' });
  if (dialectOf(db) === 'postgres')
    return new PgReplicaSignals({ replicaId, db, connection: listenerConnectionOf(db), logger: log });
  return new InProcessReplicaSignals(replicaId, (err) => log.error({ err }, 'a signal listener failed'));
}
