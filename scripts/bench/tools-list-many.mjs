// Phase 2 of the tools-list benchmark: one daemon with many idle connected sessions. Most connections
// are raw (initialize, notifications/initialized, GET stream open); a sample are official SDK clients,
// over which tools/list is timed round-robin. Heap is read after a forced GC before and after.
import { randomBytes, randomUUID } from 'node:crypto';
import { connectMcp, inBatches, openIdleConnection } from './tools-list-clients.mjs';

const CONNECT_CONCURRENCY = 32;

/**
 * agentctl (`daemon.createSessions` set): one session per connection, each with its own id and token.
 * The baseline has no sessions: its connections all go to one URL.
 */
export async function connectMany(scope, daemon, { sessions, sample }, launchConfig) {
  const before = await daemon.heap();
  let targets;
  if (daemon.createSessions !== undefined) {
    const configs = Array.from({ length: sessions }, (_, i) => ({
      ...launchConfig,
      sessionId: randomUUID(),
      taskId: `bench-task-${i}`,
      mcpToken: randomBytes(24).toString('hex'),
    }));
    const states = await daemon.createSessions(configs);
    targets = states.map((state, i) => ({
      url: daemon.mcpUrl(state),
      headers: { Authorization: `Bearer ${configs[i].mcpToken}` },
    }));
  } else {
    targets = Array.from({ length: sessions }, () => ({ url: daemon.mcpUrl, headers: {} }));
  }

  let dropped = 0;
  const clients = await inBatches(targets, CONNECT_CONCURRENCY, async ({ url, headers }, i) => {
    const connection = i < sample ? await connectMcp(url, headers) : await openIdleConnection(url, headers);
    connection.onDropped?.(() => (dropped += 1));
    scope.cleanups.push(() => connection.close());
    return connection;
  });
  const after = await daemon.heap();

  const sampled = clients.slice(0, sample);
  let next = 0;
  return {
    heapPerSession: (after - before) / sessions,
    listTools: () => sampled[next++ % sampled.length].listTools(),
    dropped: () => dropped,
  };
}
