// The scale benchmark's agentctl part at one size: a fresh agentctl with N sessions (gRPC CreateSession),
// each with one idle MCP connection, against the SDK's McpServer with N connections; tools/list timed on
// a sample of SDK clients; heap and RSS per idle session read after forced GCs (heap-probe.cjs).
// The idle connections live in child processes (scale-idle-clients.mjs), at most PER_PROCESS each: 10,000
// connections per daemon, both daemons connected at once, exceed one process's descriptor limit.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connectMcp } from './tools-list-clients.mjs';
import { timeRounds } from './tools-list-stats.mjs';

const IDLE_CLIENTS = fileURLToPath(new URL('./scale-idle-clients.mjs', import.meta.url));
const PER_PROCESS = 4_000;

/** Sends `message` to an idle-client process and resolves its answer of type `expected`. */
async function ask(child, message, expected) {
  const answer = once(child, 'message');
  child.send(message);
  const [reply] = await answer;
  if (reply?.type === 'error') throw new Error(`idle clients: ${reply.message}`);
  if (reply?.type !== expected) throw new Error(`idle clients answered ${JSON.stringify(reply)}`);
  return reply;
}

/** Opens one idle connection per target, spread over child processes; resolves a status reader. */
export async function openIdleConnections(scope, targets) {
  const children = [];
  for (let i = 0; i < targets.length; i += PER_PROCESS) {
    const child = fork(IDLE_CLIENTS, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    scope.children.add(child);
    scope.cleanups.push(() => scope.stopChild(child));
    children.push({ child, targets: targets.slice(i, i + PER_PROCESS) });
  }
  await Promise.all(children.map(({ child, targets: part }) => ask(child, { type: 'open', targets: part }, 'opened')));
  return async () => {
    const all = await Promise.all(children.map(({ child }) => ask(child, { type: 'status' }, 'status')));
    return all.reduce(
      (sum, s) => ({ open: sum.open + s.open, dropped: sum.dropped + s.dropped, notified: sum.notified + s.notified }),
      { open: 0, dropped: 0, notified: 0 },
    );
  };
}

/** N connections to one daemon: `sample` SDK clients here, the rest idle in child processes. */
async function connect(scope, daemon, sessions, sample, launchConfig) {
  const before = await daemon.memory();
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
  const sampled = [];
  for (const { url, headers } of targets.slice(0, sample)) {
    const client = await connectMcp(url, headers);
    scope.cleanups.push(() => client.close());
    sampled.push(client);
  }
  const status = await openIdleConnections(scope, targets.slice(sample));
  const after = await daemon.memory();
  let next = 0;
  return {
    heapPerSession: (after.heapUsed - before.heapUsed) / sessions,
    rssPerSession: (after.rss - before.rss) / sessions,
    listTools: () => sampled[next++ % sampled.length].listTools(),
    status,
  };
}

/** One size: resolves p50s (ms), their ratio and memory per idle session (bytes), both daemons stopped. */
export async function measureAgentctl(scope, daemons, sessions, options, launchConfig) {
  const sample = Math.min(options.sample, sessions);
  try {
    const agentctl = await daemons.agentctl({ heapProbe: true });
    const ours = await connect(scope, agentctl, sessions, sample, launchConfig);
    const baseline = await daemons.baseline(launchConfig, { heapProbe: true });
    const theirs = await connect(scope, baseline, sessions, sample, launchConfig);
    const [oursTimed, theirsTimed] = await timeRounds(
      [
        { label: `agentctl, ${sessions} sessions connected`, call: ours.listTools },
        { label: `McpServer, ${sessions} connections`, call: theirs.listTools },
      ],
      { rounds: options.rounds, warmup: options.warmup, iterations: options.iterations },
    );
    const dropped = (await ours.status()).dropped + (await theirs.status()).dropped;
    if (dropped > 0) throw new Error(`${dropped} idle GET streams closed during the run`);
    return {
      sessions,
      oursP50: oursTimed.stats.p50,
      theirsP50: theirsTimed.stats.p50,
      ratio: oursTimed.stats.p50 / theirsTimed.stats.p50,
      heapPerSession: ours.heapPerSession,
      rssPerSession: ours.rssPerSession,
      baselineHeapPerSession: theirs.heapPerSession,
    };
  } finally {
    await scope.runCleanups();
  }
}
