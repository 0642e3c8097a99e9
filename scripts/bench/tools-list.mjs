// tools/list latency: agentctl (low-level Server answering a list precomputed once per config) against
// the SDK's high-level McpServer serving the same tools (it converts every zod schema on every list),
// with a raw loopback HTTP round trip as the floor. DESIGN §12: the goal is to beat McpServer clearly.
//   node scripts/bench/tools-list.mjs [--iterations 2000] [--warmup 200] [--rounds 3]
// Every server is a child process on 127.0.0.1 and the timed client is always this process, so the
// three variants differ only in the server. Rounds alternate the variant order so that machine noise
// (another build, a test run) lands on all of them.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createProcessScope, readReadyLine } from './bench-processes.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cjs = createRequire(import.meta.url);
const grpc = cjs('@grpc/grpc-js');
const { controlTokenMetadata, launchConfigToWire, loadAgentctlProto, mcpPathFor } = cjs('@kandev/protocol');
const { Client } = cjs('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = cjs('@modelcontextprotocol/sdk/client/streamableHttp.js');

const AGENTCTL_MAIN = join(root, 'packages/agentctl/dist/main.js');
const SERVERS = join(root, 'scripts/bench/tools-list-servers.mjs');
const USAGE = 'node scripts/bench/tools-list.mjs [--iterations 2000] [--warmup 200] [--rounds 3]';
const START_TIMEOUT_MS = 15_000;
const STOP_GRACE_MS = 5_000;
// The run is bounded even if a server hangs: a fixed allowance plus 25 ms per call (about 15x the
// slowest expected variant).
const FIXED_BUDGET_MS = 60_000;
const PER_CALL_BUDGET_MS = 25;

const CONTROL_TOKEN = randomBytes(24).toString('hex');
const MCP_TOKEN = randomBytes(24).toString('hex');

/** The largest realistic list: kanban task, asks the user, both providers attached, owns its title. */
const LAUNCH_CONFIG = {
  sessionId: '6b656e64-6576-4265-8e63-68746f6f6c73', // CreateSession accepts only UUIDs
  taskId: 'bench-task',
  workspaceId: 'bench-workspace',
  surface: 'kanban_task',
  questionCapability: 'user',
  providers: ['github', 'gitlab'],
  revision: 1,
  ownsTaskTitle: true,
  mcpToken: MCP_TOKEN,
  systemPrompt: 'benchmark',
  agent: null,
};

class UsageError extends Error {}

function parseOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        iterations: { type: 'string', default: '2000' },
        warmup: { type: 'string', default: '200' },
        rounds: { type: 'string', default: '3' },
      },
      strict: true,
    }));
  } catch (err) {
    throw new UsageError(err.message);
  }
  const count = (name, min) => {
    const value = Number(values[name]);
    if (!Number.isSafeInteger(value) || value < min) throw new UsageError(`--${name} must be an integer >= ${min}`);
    return value;
  };
  return { iterations: count('iterations', 1), warmup: count('warmup', 0), rounds: count('rounds', 1) };
}

// ---- child processes --------------------------------------------------------------------------

const { children, cleanups, runCleanups, stopAndExit, stopChild, isStopping } = createProcessScope({
  name: 'tools-list',
  stopGraceMs: STOP_GRACE_MS,
  exitGraceMs: 2 * STOP_GRACE_MS,
});

/** Spawns a node child and resolves its first `{"event":"ready"}` stdout line. */
async function startChild(label, args, env) {
  // A pipe on stdin lets the comparison servers notice that this process died; agentctl ignores it.
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  const stderr = [];
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.push(line);
    if (stderr.length > 50) stderr.shift();
  });
  try {
    return { child, ready: await readReadyLine(child, START_TIMEOUT_MS) };
  } catch (err) {
    throw new Error(`${label}: ${err.message}\n${stderr.join('\n')}`, { cause: err });
  }
}

// ---- the three servers ------------------------------------------------------------------------

async function createSession(grpcPort) {
  const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
  const client = new AgentCtl(`127.0.0.1:${grpcPort}`, grpc.credentials.createInsecure());
  try {
    return await new Promise((resolve, reject) => {
      client.CreateSession(
        launchConfigToWire(LAUNCH_CONFIG),
        controlTokenMetadata(CONTROL_TOKEN),
        { deadline: Date.now() + 10_000 },
        (err, state) => (err ? reject(err) : resolve(state)),
      );
    });
  } finally {
    client.close();
  }
}

async function connectMcp(url, headers) {
  const client = new Client({ name: 'kandev-bench', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    // The transport passes one shared AbortSignal to every POST; undici (Node's fetch) removes its abort
    // listener only when the request is garbage collected, so back-to-back calls pile up past undici's
    // limit of 1500 and each further call prints a MaxListenersExceededWarning: that would time the
    // client's stderr, not the server. Only the long-lived GET stream keeps the signal (close ends it).
    fetch: (input, init) => fetch(input, init?.method === 'POST' ? { ...init, signal: undefined } : init),
  });
  await client.connect(transport);
  return {
    listTools: () => client.listTools(),
    async close() {
      try {
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
  };
}

const childEnv = (extra = {}) => ({ PATH: process.env.PATH ?? '', ...extra });

async function startAgentctl() {
  const { child, ready } = await startChild(
    'agentctl',
    [AGENTCTL_MAIN],
    childEnv({
      KANDEV_AGENTCTL_TOKEN: CONTROL_TOKEN,
      KANDEV_AGENTCTL_GRPC_PORT: '0',
      KANDEV_AGENTCTL_MCP_PORT: '0',
      LOG_LEVEL: 'info',
    }),
  );
  cleanups.push(() => stopChild(child));
  const state = await createSession(ready.grpcPort);
  const url = `http://127.0.0.1:${ready.mcpPort}${state.mcp_path || mcpPathFor(LAUNCH_CONFIG.sessionId)}`;
  const mcp = await connectMcp(url, { Authorization: `Bearer ${MCP_TOKEN}` });
  cleanups.push(() => mcp.close());
  return mcp;
}

async function startBaseline() {
  const { child, ready } = await startChild(
    'baseline',
    [SERVERS, 'baseline', JSON.stringify({ ...LAUNCH_CONFIG, mcpToken: '' })],
    childEnv(),
  );
  cleanups.push(() => stopChild(child));
  const mcp = await connectMcp(`http://127.0.0.1:${ready.port}/mcp`, {});
  cleanups.push(() => mcp.close());
  return mcp;
}

async function startFloor() {
  const { child, ready } = await startChild('floor', [SERVERS, 'floor'], childEnv());
  cleanups.push(() => stopChild(child));
  const url = `http://127.0.0.1:${ready.port}/`;
  // The same fetch (undici, keep-alive) the SDK client transport uses, with a tools/list-sized request.
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  return async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (!response.ok) throw new Error(`floor server answered ${response.status}`);
    await response.json();
  };
}

// ---- measurement ------------------------------------------------------------------------------

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

async function timeCalls(call, count, samples) {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await call();
    samples.push(performance.now() - start);
  }
}

function summarize(samples, roundMeans) {
  const sorted = Float64Array.from(samples).sort();
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  // Nearest-rank percentile.
  const at = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
  return { count: sorted.length, mean, p50: at(0.5), p95: at(0.95), p99: at(0.99), perSecond: 1000 / mean, roundMeans };
}

const ms = (value) => value.toFixed(3);

function row(label, stats) {
  const cells = [label, stats.count, ms(stats.mean), ms(stats.p50), ms(stats.p95), ms(stats.p99)];
  cells.push(Math.round(stats.perSecond), stats.roundMeans.map(ms).join(' / '));
  return `| ${cells.join(' | ')} |`;
}

function report(options, tools, variants) {
  const [agentctl, baseline, floor] = variants.map((variant) => variant.stats);
  const lines = [
    `tools/list, ${tools.count} tools (kanban_task, question capability user, github + gitlab, owns the task title)`,
    `${options.rounds} rounds x ${options.iterations} timed calls per variant (${options.warmup} warm-up calls per round), ` +
      `order alternating per round; node ${process.version}, ${cpus().length} CPUs`,
    `list JSON: agentctl ${tools.agentctlBytes} bytes, baseline ${tools.baselineBytes} bytes`,
    '',
    '| variant | calls | mean ms | p50 ms | p95 ms | p99 ms | calls/s | round means ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...variants.map(({ label, stats }) => row(label, stats)),
    '',
    `baseline / agentctl: mean x${(baseline.mean / agentctl.mean).toFixed(2)}, p50 x${(baseline.p50 / agentctl.p50).toFixed(2)}`,
    `above the floor (mean): agentctl +${ms(agentctl.mean - floor.mean)} ms, baseline +${ms(baseline.mean - floor.mean)} ms ` +
      `(x${((baseline.mean - floor.mean) / (agentctl.mean - floor.mean)).toFixed(2)})`,
  ];
  console.log(lines.join('\n'));
}

async function run(options) {
  try {
    const agentctl = await startAgentctl();
    const baseline = await startBaseline();
    const floor = await startFloor();
    const tools = await checkSameTools(agentctl, baseline);

    const variants = [
      { label: 'agentctl: low-level Server, precomputed list', call: agentctl.listTools },
      { label: 'baseline: SDK McpServer, same tools', call: baseline.listTools },
      { label: 'floor: raw loopback HTTP POST', call: floor },
    ].map((variant) => ({ ...variant, samples: [], roundMeans: [] }));

    // The client process is shared: warm it (and every server) once before any timing, so its own JIT
    // warm-up is not charged to whichever variant happens to run first.
    for (const variant of variants) await timeCalls(variant.call, options.warmup, []);
    for (let round = 0; round < options.rounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        await timeCalls(variant.call, options.warmup, []);
        const before = variant.samples.length;
        await timeCalls(variant.call, options.iterations, variant.samples);
        const roundSamples = variant.samples.slice(before);
        variant.roundMeans.push(roundSamples.reduce((sum, value) => sum + value, 0) / roundSamples.length);
      }
    }
    for (const variant of variants) variant.stats = summarize(variant.samples, variant.roundMeans);
    report(options, tools, variants);
  } finally {
    await runCleanups();
  }
}

async function main() {
  const options = parseOptions();
  const calls = (options.iterations + options.warmup) * options.rounds * 3;
  const budget = FIXED_BUDGET_MS + calls * PER_CALL_BUDGET_MS;
  const watchdog = setTimeout(() => stopAndExit(1, `gave up after ${Math.round(budget / 1000)} s`), budget);
  watchdog.unref();
  // `on`, not `once`: Ctrl-C arrives twice (terminal + forwarded by bench.mjs); stopAndExit ignores repeats.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAndExit(130, `${signal}: stopping`));
  await run(options);
  clearTimeout(watchdog);
}

main().then(
  () => process.exit(0),
  (err) => {
    // Calls in flight fail once stopAndExit closes their servers; it exits on its own.
    if (isStopping()) return;
    if (err instanceof UsageError) {
      console.error(`tools-list: ${err.message}\nusage: ${USAGE}`);
      process.exit(2);
    }
    console.error(`tools-list: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
