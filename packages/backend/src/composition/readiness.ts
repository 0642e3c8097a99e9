import type { Knex } from 'knex';
import { gatesReadiness, reachOf } from '../runtime/agentctl/agentctl-reachability';
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

/**
 * Ready when the database takes a write and every shared agentctl (local, remote) answers health. A
 * per-session executor's agentctls are reported, never waited for (gatesReadiness).
 */
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
  const gating = executors.names().filter((name) => gatesReadiness(executors.kindOf(name)));
  const ready = database === 'ok' && gating.every((name) => agentctl[name] === 'reachable');
  return { ready, body: { status: ready ? 'ready' : 'not_ready', checks: { database, agentctl } } };
}
