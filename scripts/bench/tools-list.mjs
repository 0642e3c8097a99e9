// tools/list latency and idle-connection memory: agentctl (a tools/list answered from a body serialised
// once per tool set) against the SDK's high-level McpServer serving the same tools (it converts every
// zod schema on every list, and holds an McpServer + transport per connection), with a raw loopback
// HTTP round trip as the latency floor.
//   node scripts/bench/tools-list.mjs [--iterations 1500] [--warmup 200] [--rounds 3]
//                                     [--sessions 1000] [--sample 10] [--many-iterations 600]
// Two phases, each on fresh daemons (child processes on 127.0.0.1; the timed client is always this
// process, so variants differ only in the server):
//   1. one session: agentctl, McpServer and the floor, each with one connection.
//   2. --sessions connected: agentctl with that many sessions (gRPC CreateSession), each with one
//      initialized MCP connection holding its GET stream open, and McpServer with as many connections.
//      Both run with --expose-gc and heap-probe.cjs: heap used after a forced GC, before and after.
//      Then tools/list timed round-robin on --sample of those connections (official SDK clients).
import { Buffer } from 'node:buffer';
import { cpus, loadavg } from 'node:os';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { integerOption, LARGEST_LAUNCH_CONFIG, parseBenchArgs, UsageError } from './bench-entry.mjs';
import { createProcessScope } from './bench-processes.mjs';
import { connectMcp } from './tools-list-clients.mjs';
import { startDaemons } from './tools-list-daemons.mjs';
import { connectMany } from './tools-list-many.mjs';
import { figuresTable, timeRounds } from './tools-list-stats.mjs';
import { ratio, reportTarget } from './targets.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const USAGE =
  'node scripts/bench/tools-list.mjs [--iterations 1500] [--warmup 200] [--rounds 3] ' +
  '[--sessions 1000] [--sample 10] [--many-iterations 600]';
// The run is bounded even if a server hangs: a fixed allowance, 25 ms per timed call (about 15x the
// slowest expected variant) and 50 ms per session of phase 2.
const FIXED_BUDGET_MS = 90_000;
const PER_CALL_BUDGET_MS = 25;
const PER_SESSION_BUDGET_MS = 50;

function parseOptions() {
  const values = parseBenchArgs({
    iterations: { type: 'string', default: '1500' },
    warmup: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    sessions: { type: 'string', default: '1000' },
    sample: { type: 'string', default: '10' },
    'many-iterations': { type: 'string', default: '600' },
  });
  const count = (name, min) => integerOption(values[name], name, min);
  const options = {
    iterations: count('iterations', 1),
    warmup: count('warmup', 0),
    rounds: count('rounds', 1),
    sessions: count('sessions', 1),
    sample: count('sample', 1),
    manyIterations: count('many-iterations', 1),
  };
  if (options.sample > options.sessions) throw new UsageError('--sample must not exceed --sessions');
  return options;
}

const scope = createProcessScope({ name: 'tools-list', stopGraceMs: 5_000, exitGraceMs: 10_000 });
const daemons = startDaemons(scope, root);

/** Both servers must list exactly the same tools, or the comparison means nothing. */
async function checkSameTools(agentctl, baseline) {
  const [ours, theirs] = await Promise.all([agentctl.listTools(), baseline.listTools()]);
  const names = (result) => result.tools.map((tool) => tool.name).sort();
  const a = names(ours);
  const b = names(theirs);
  if (a.length === 0 || a.join('\n') !== b.join('\n')) {
    throw new Error(`agentctl and the baseline list different tools:\n  agentctl: ${a}\n  baseline: ${b}`);
  }
  const bytes = (result) => Buffer.byteLength(JSON.stringify(result));
  return { count: a.length, agentctlBytes: bytes(ours), baselineBytes: bytes(theirs) };
}

/** Phase 1: one session, one connection per server. */
async function oneSession(options) {
  const agentctl = await daemons.agentctl({ heapProbe: false });
  const [state] = await agentctl.createSessions([LARGEST_LAUNCH_CONFIG]);
  const ours = await connectMcp(agentctl.mcpUrl(state), { Authorization: `Bearer ${LARGEST_LAUNCH_CONFIG.mcpToken}` });
  scope.cleanups.push(() => ours.close());
  const baseline = await daemons.baseline(LARGEST_LAUNCH_CONFIG, { heapProbe: false });
  const theirs = await connectMcp(baseline.mcpUrl, {});
  scope.cleanups.push(() => theirs.close());
  const floor = await daemons.floor();
  const tools = await checkSameTools(ours, theirs);
  const variants = await timeRounds(
    [
      { label: 'agentctl, one session', call: ours.listTools },
      { label: 'McpServer, one connection', call: theirs.listTools },
      { label: 'floor: raw loopback HTTP POST', call: floor.call },
    ],
    options,
  );
  await scope.runCleanups();
  return { tools, variants };
}

/** Phase 2: `sessions` idle connected sessions per server, then tools/list on a sample of them. */
async function manySessions(options) {
  const agentctl = await daemons.agentctl({ heapProbe: true });
  const ours = await connectMany(scope, agentctl, options, LARGEST_LAUNCH_CONFIG);
  const baseline = await daemons.baseline(LARGEST_LAUNCH_CONFIG, { heapProbe: true });
  const theirs = await connectMany(scope, baseline, options, LARGEST_LAUNCH_CONFIG);
  const variants = await timeRounds(
    [
      { label: `agentctl, ${options.sessions} sessions connected`, call: ours.listTools },
      { label: `McpServer, ${options.sessions} connections`, call: theirs.listTools },
    ],
    { ...options, iterations: options.manyIterations },
  );
  const dropped = ours.dropped() + theirs.dropped();
  if (dropped > 0) throw new Error(`${dropped} idle GET streams closed during the run`);
  await scope.runCleanups();
  return { variants, memory: { agentctl: ours.heapPerSession, baseline: theirs.heapPerSession } };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

function report(options, one, many) {
  const [ours, theirs, floor] = one.variants.map((variant) => variant.stats);
  const [oursMany, theirsMany] = many.variants.map((variant) => variant.stats);
  const { agentctl: oursHeap, baseline: theirsHeap } = many.memory;
  console.log(
    [
      `tools/list, ${one.tools.count} tools (kanban_task, asks the user, github + gitlab, owns the title); ` +
        `JSON ${one.tools.agentctlBytes} B agentctl, ${one.tools.baselineBytes} B McpServer`,
      `${options.rounds} rounds x ${options.iterations} calls (one session) / x ${options.manyIterations} calls ` +
        `(${options.sessions} connected, round-robin over ${options.sample}), ${options.warmup} warm-up calls per round; ` +
        `node ${process.version}, ${cpus().length} CPUs, load ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      '',
      ...figuresTable([...one.variants, ...many.variants]),
      '',
      `heap per idle connected session (after GC, ${options.sessions}): agentctl ${kb(oursHeap)}, McpServer ${kb(theirsHeap)}`,
      '',
    ].join('\n'),
  );
  const oneVsSdk = ours.p50 / theirs.p50;
  const oneVsFloor = ours.p50 / floor.p50;
  reportTarget(
    'tools/list p50, one session',
    `${ratio(oneVsSdk)} McpServer, ${ratio(oneVsFloor)} floor`,
    '<= x0.40 McpServer, <= x2.50 floor',
    oneVsSdk <= 0.4 && oneVsFloor <= 2.5,
  );
  const manyVsSdk = oursMany.p50 / theirsMany.p50;
  reportTarget(
    `tools/list p50, ${options.sessions.toLocaleString('en-US')} sessions connected`,
    `${ratio(manyVsSdk)} McpServer`,
    '<= x0.40 McpServer',
    manyVsSdk <= 0.4,
  );
  const heapVsSdk = oursHeap / theirsHeap;
  reportTarget(
    `memory per idle connected session, ${options.sessions.toLocaleString('en-US')} sessions`,
    `${kb(oursHeap)}, ${ratio(heapVsSdk)} McpServer`,
    '<= x0.50 McpServer',
    heapVsSdk <= 0.5,
  );
}

async function main() {
  const options = parseOptions();
  const calls =
    (options.iterations + options.warmup) * (options.rounds + 1) * 3 +
    (options.manyIterations + options.warmup) * (options.rounds + 1) * 2;
  const budget = FIXED_BUDGET_MS + calls * PER_CALL_BUDGET_MS + 2 * options.sessions * PER_SESSION_BUDGET_MS;
  const watchdog = setTimeout(() => scope.stopAndExit(1, `gave up after ${Math.round(budget / 1000)} s`), budget);
  watchdog.unref();
  // `on`, not `once`: Ctrl-C arrives twice (terminal + forwarded by bench.mjs); stopAndExit ignores repeats.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => scope.stopAndExit(130, `${signal}: stopping`));
  try {
    const one = await oneSession(options);
    const many = await manySessions(options);
    report(options, one, many);
  } finally {
    await scope.runCleanups();
  }
  clearTimeout(watchdog);
}

main().then(
  () => process.exit(0),
  (err) => {
    // Calls in flight fail once stopAndExit closes their servers; it exits on its own.
    if (scope.isStopping()) return;
    if (err instanceof UsageError) {
      console.error(`tools-list: ${err.message}\nusage: ${USAGE}`);
      process.exit(2);
    }
    console.error(`tools-list: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
