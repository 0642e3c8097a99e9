import { isAppError } from '@kandev/protocol';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** tools/list is answered from memory: its buckets start well under a millisecond. */
const TOOLS_LIST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1];
const GRPC_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * agentctl's instruments over its own Registry (never prom-client's global one, so daemons and
 * in-process tests never share series). Built by main.ts and handed to what it measures.
 */
export function createAgentctlMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let connections: () => number = () => 0;
  new Gauge({
    name: 'kandev_agentctl_mcp_connections',
    help: 'Open (or initialising) MCP client connections, all sessions: the slots the connection caps count',
    registers,
    collect() {
      this.set(connections());
    },
  });
  const refusedConnections = new Counter({
    name: 'kandev_agentctl_mcp_connections_refused_total',
    help: 'MCP initialize requests refused with 429 (a per-session or per-agentctl connection cap)',
    registers,
  });
  const toolsListSeconds = new Histogram({
    name: 'kandev_agentctl_tools_list_duration_seconds',
    help: 'Time to answer tools/list',
    buckets: TOOLS_LIST_BUCKETS,
    registers,
  });
  const listChanged = new Counter({
    name: 'kandev_agentctl_list_changed_notifications_total',
    help: 'notifications/tools/list_changed sent (one per MCP connection whose session list changed)',
    registers,
  });
  const updates = new Counter({
    name: 'kandev_agentctl_update_providers_total',
    help: 'Provider updates (one per update of a StreamProviderUpdates call) by outcome (applied, unchanged, stale, or the error code)',
    labelNames: ['outcome'] as const,
    registers,
  });
  const updateSeconds = new Histogram({
    name: 'kandev_agentctl_update_providers_duration_seconds',
    help: 'Time to apply one provider update (including the list_changed notifications)',
    labelNames: ['outcome'] as const,
    buckets: GRPC_BUCKETS,
    registers,
  });

  return {
    registry,
    /** The live connection count, read on each scrape. */
    countConnections(count: () => number): void {
      connections = count;
    },
    connectionRefused(): void {
      refusedConnections.inc();
    },
    /** Runs a tools/list answer, timed (the histogram's `_count` is the request count). */
    toolsList<T>(answer: () => T): T {
      const start = process.hrtime.bigint();
      try {
        return answer();
      } finally {
        toolsListSeconds.observe(secondsSince(start));
      }
    },
    listChangedSent(count: number): void {
      listChanged.inc(count);
    },
    /** Runs one provider update, counted and timed by its outcome (or its error's code). */
    async updateProviders<T extends { outcome: string }>(run: () => Promise<T>): Promise<T> {
      const start = process.hrtime.bigint();
      let outcome = 'error';
      try {
        const result = await run();
        outcome = result.outcome;
        return result;
      } catch (err) {
        outcome = errorCode(err);
        throw err;
      } finally {
        updates.inc({ outcome });
        updateSeconds.observe({ outcome }, secondsSince(start));
      }
    },
  };
}

function errorCode(err: unknown): string {
  return isAppError(err) ? err.code : 'error';
}

export type AgentctlMetrics = ReturnType<typeof createAgentctlMetrics>;
