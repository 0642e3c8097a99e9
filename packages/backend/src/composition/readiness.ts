import type { Knex } from 'knex';
import { reachOf } from '../runtime/agentctl/agentctl-reachability';
import type { ExecutorRegistry } from '../runtime/executors/executor-registry';
import { isDatabaseWritable } from '../platform/store/database-probe';

/** The /readyz answer: status words only (no addresses, tokens or paths), so it can stay open. */
export interface Readiness {
  ready: boolean;
  body: {
    status: 'ready' | 'not_ready';
    checks: { database: 'ok' | 'failed'; agentctl: Record<string, 'reachable' | 'unreachable'> };
  };
}

const DATABASE_PROBE_TIMEOUT_MS = 2_000;

/** Ready when the database takes a write and every configured executor's agentctl answers health. */
export async function checkReadiness(
  db: Knex,
  executors: ExecutorRegistry,
  isReachable: (grpcAddress: string) => boolean,
): Promise<Readiness> {
  const database = (await isDatabaseWritable(db, DATABASE_PROBE_TIMEOUT_MS)) ? 'ok' : 'failed';
  const agentctl = Object.fromEntries(
    executors
      .names()
      .map((name) => [name, reachOf(executors.backend(name), isReachable).reachable ? 'reachable' : 'unreachable']),
  ) as Record<string, 'reachable' | 'unreachable'>;
  const ready = database === 'ok' && Object.values(agentctl).every((v) => v === 'reachable');
  return { ready, body: { status: ready ? 'ready' : 'not_ready', checks: { database, agentctl } } };
}
