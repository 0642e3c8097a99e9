import { isAppError } from '@kandev/protocol';
import { createInstruments } from '@kandev/metrics';

/** tools/list is answered from memory: its buckets start well under a millisecond. */
const TOOLS_LIST_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1];
const GRPC_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const FORWARD_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 120, 600];
const TOOL_COUNT_BUCKETS = [0, 5, 10, 15, 20, 25, 30, 40, 50];
/** How a forwarded tool call settles (attach/pending-calls.ts). */
const SETTLEMENTS = ['answered', 'timed_out', 'cancelled', 'channel_lost'] as const;
type Settlement = (typeof SETTLEMENTS)[number];
/** An agent's status as agentctl reports it (`none`: an MCP-only session, not counted). */
const AGENT_STATUSES = ['starting', 'ready', 'prompting', 'exited'] as const;

/** What the gauges read on each scrape (the session registry): O(sessions), never on a hot path. */
export interface AgentctlCensus {
  sessions: number;
  /** Each session's agent status. */
  agents: Partial<Record<string, number>>;
  /** Each session's tool count. */
  toolCounts: number[];
}

function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

/**
 * agentctl's instruments over its own Registry (with `kandev_build_info` and Node's defaults). Built by
 * main.ts and handed to what it measures; every update is O(1) with bounded labels.
 */
export function createAgentctlMetrics() {
  const instruments = createInstruments();
  let connections: () => number = () => 0;
  let census: () => AgentctlCensus = () => ({ sessions: 0, agents: {}, toolCounts: [] });
  instruments.gauge({
    name: 'kandev_agentctl_mcp_connections',
    help: 'Open (or initialising) MCP client connections, all sessions: the slots the connection caps count',
    read: (set) => set({}, connections()),
  });
  instruments.gauge({
    name: 'kandev_agentctl_sessions',
    help: 'Sessions this agentctl holds',
    read: (set) => set({}, census().sessions),
  });
  instruments.gauge({
    name: 'kandev_agentctl_agents',
    help: "Sessions' agent processes by status (starting, ready, prompting: running; exited)",
    labelNames: ['status'] as const,
    known: { status: AGENT_STATUSES },
    read: (set) => {
      for (const [status, count] of Object.entries(census().agents)) set({ status }, count ?? 0);
    },
  });
  instruments.histogram({
    name: 'kandev_agentctl_session_tools',
    help: "Tools each held session lists now (rebuilt on each scrape from the sessions' tool sets)",
    buckets: TOOL_COUNT_BUCKETS,
    read: (observe) => {
      for (const count of census().toolCounts) observe({}, count);
    },
  });
  const refusedConnections = instruments.counter({
    name: 'kandev_agentctl_mcp_connections_refused_total',
    help: 'MCP initialize requests refused with 429 (a per-session or per-agentctl connection cap)',
  });
  const toolsListSeconds = instruments.histogram({
    name: 'kandev_agentctl_tools_list_duration_seconds',
    help: 'Time to answer tools/list',
    buckets: TOOLS_LIST_BUCKETS,
  });
  const listChanged = instruments.counter({
    name: 'kandev_agentctl_list_changed_notifications_total',
    help: 'notifications/tools/list_changed sent (one per MCP connection whose session list changed)',
  });
  const listChangedFailed = instruments.counter({
    name: 'kandev_agentctl_list_changed_failures_total',
    help: 'notifications/tools/list_changed that could not be delivered to a connection',
  });
  const listChangedSeconds = instruments.histogram({
    name: 'kandev_agentctl_list_changed_delivery_seconds',
    help: "From a session's tool list changing to its list_changed written to each MCP connection",
    buckets: TOOLS_LIST_BUCKETS,
  });
  const forwarded = instruments.outcomes({
    total: {
      name: 'kandev_agentctl_forwarded_tool_calls_total',
      help: 'Tool calls forwarded to the backend, by how they settled (answered, timed_out, cancelled, channel_lost)',
    },
    duration: {
      name: 'kandev_agentctl_forwarded_tool_call_duration_seconds',
      help: 'From forwarding a tool call to the backend to its settlement, by outcome',
      buckets: FORWARD_BUCKETS,
    },
    known: SETTLEMENTS,
  });
  const update = instruments.outcomes({
    total: {
      name: 'kandev_agentctl_update_providers_total',
      help: 'Provider updates (one per update of a StreamProviderUpdates call) by outcome (applied, unchanged, stale, or the error code)',
    },
    duration: {
      name: 'kandev_agentctl_update_providers_duration_seconds',
      help: 'Time to apply one provider update (including the list_changed notifications)',
      buckets: GRPC_BUCKETS,
    },
  });

  return {
    registry: instruments.registry,
    /** The live connection count, read on each scrape. */
    countConnections(count: () => number): void {
      connections = count;
    },
    /** The sessions, their agents and tool counts, read on each scrape. */
    countSessions(read: () => AgentctlCensus): void {
      census = read;
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
    /** One list_changed delivered (`since`: hrtime when the session's list changed) or failed. */
    listChangedDelivered(since: bigint): void {
      listChanged.inc();
      listChangedSeconds.observe(secondsSince(since));
    },
    listChangedFailed(): void {
      listChangedFailed.inc();
    },
    /** A forwarded call settled; `since`: hrtime when it was forwarded. */
    forwardedCallSettled(outcome: Settlement, since: bigint): void {
      forwarded(outcome, secondsSince(since));
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
        outcome = isAppError(err) ? err.code : 'error';
        throw err;
      } finally {
        update(outcome, secondsSince(start));
      }
    },
  };
}

export type AgentctlMetrics = ReturnType<typeof createAgentctlMetrics>;
