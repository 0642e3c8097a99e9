// Live source updates: from a REST batch on a task's workspace sources to the task's MCP clients
// receiving `notifications/tools/list_changed`, and what the live refresh adds to the REST call.
//   node scripts/bench/live-update.mjs [--runs 300] [--warmup 20] [--sessions 100] [--rounds 3]
// One real backend (packages/backend/dist/main.js) with its own local agentctl on 127.0.0.1, every port
// chosen by the OS, on a fresh data dir. Every client (REST, and the official MCP SDK client with its GET
// notification stream open) is this process, so REST timings and notification arrivals share one clock.
//  1. single session: a github-only task with one live session; each run adds a fresh gitlab repository
//     or removes it again (a real change each time: exactly one list_changed), timed three ways.
//  2. baseline, interleaved with 1: the same calls on a github-only task with no session (not_needed).
//  3. fan-out: one task with --sessions live sessions, one client each; each round is one change that
//     every client must receive exactly once.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createProcessScope, readReadyLine, signalPid } from './bench-processes.mjs';
import { Api, connectClient, expectChange, within } from './live-update-clients.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

const BACKEND_MAIN = join(root, 'packages/backend/dist/main.js');
const USAGE = 'node scripts/bench/live-update.mjs [--runs 300] [--warmup 20] [--sessions 100] [--rounds 3]';
const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;
// How long one list_changed (or all of one fan-out round's) may take before the run fails.
const NOTIFY_TIMEOUT_MS = 10_000;
// The run is bounded even if a daemon hangs: a fixed allowance plus 250 ms per single-session run (live
// change, barrier and baseline call: about 15 ms expected) and 250 ms per session and round.
const FIXED_BUDGET_MS = 120_000;
const PER_RUN_BUDGET_MS = 250;
const PER_SESSION_ROUND_BUDGET_MS = 250;

class UsageError extends Error {}

function parseOptions() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        runs: { type: 'string', default: '300' },
        warmup: { type: 'string', default: '20' },
        sessions: { type: 'string', default: '100' },
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
  return {
    runs: count('runs', 1),
    warmup: count('warmup', 0),
    sessions: count('sessions', 1),
    rounds: count('rounds', 1),
  };
}

// ---- the backend process ----------------------------------------------------------------------

// agentctl pids: the backend stops its agentctl on SIGTERM, but one outlives a killed backend by design.
const {
  children,
  pids: agentctlPids,
  cleanups,
  runCleanups,
  stopAndExit,
  stopChild,
  isStopping,
} = createProcessScope({ name: 'live-update', stopGraceMs: STOP_GRACE_MS, exitGraceMs: 3 * STOP_GRACE_MS });

/** Lines of a log file (agentctl's, in the data dir) at warn level or above: pino levels 40+. */
function warnLines(lines) {
  return lines.filter((line) => {
    try {
      return JSON.parse(line).level >= 40;
    } catch {
      return line.trim().length > 0;
    }
  });
}

/** The backend on a fresh data dir with its own local agentctl; resolves once it printed its ready line. */
async function startBackend() {
  const dataDir = mkdtempSync(join(tmpdir(), 'kandev-bench-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const child = spawn(process.execPath, [BACKEND_MAIN], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      KANDEV_HTTP_PORT: '0',
      KANDEV_AGENTCTL_GRPC_PORT: '0',
      KANDEV_AGENTCTL_MCP_PORT: '0',
      KANDEV_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  // Registered before the ready line: SIGTERM (not the exit handler's SIGKILL) makes it stop its agentctl.
  cleanups.push(async () => {
    await stopChild(child);
    for (const pid of agentctlPids) signalPid(pid, 'SIGKILL');
  });
  // LOG_LEVEL=warn: every stderr line is a warning or an error.
  const stderr = { lines: [], total: 0 };
  createInterface({ input: child.stderr }).on('line', (line) => {
    stderr.total += 1;
    stderr.lines.push(line);
    if (stderr.lines.length > 50) stderr.lines.shift();
  });
  const agentctlLog = () => {
    const file = join(dataDir, 'agentctl.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n') : [];
  };
  const logs = () =>
    `backend stderr (last lines):\n${stderr.lines.join('\n')}\nagentctl.log (last lines):\n` +
    agentctlLog().slice(-30).join('\n');
  const ready = await readReadyLine(child, START_TIMEOUT_MS).catch((err) => {
    throw new Error(`backend: ${err.message}\n${logs()}`, { cause: err });
  });
  if (Number.isSafeInteger(ready.agentctl?.pid)) agentctlPids.add(ready.agentctl.pid);
  return {
    api: new Api(ready.url, readFileSync(ready.apiTokenFile, 'utf8').trim()),
    logs,
    /** Warnings and errors so far: backend stderr lines and agentctl.log lines at warn or above. */
    warnings: () => ({ backend: stderr.total, agentctl: warnLines(agentctlLog()).length }),
  };
}

/** Launches `count` sessions of a task and connects one client to each, streams open. */
async function liveClients(backend, taskId, count) {
  const clients = [];
  // One cleanup for all of them, bounded: closing must not hang on a daemon that stopped answering.
  cleanups.push(() =>
    within(
      Promise.allSettled(clients.map((client) => client.close())),
      STOP_GRACE_MS,
      'MCP clients did not close',
      () => '',
    ),
  );
  for (let i = 0; i < count; i++) {
    const session = await backend.api.create(`/api/tasks/${taskId}/sessions`, {});
    if (session.launch_config.providers.join() !== 'github') {
      throw new Error(`session launched with providers ${session.launch_config.providers}, expected github`);
    }
    clients.push(await connectClient(session, backend.logs));
  }
  return clients;
}

// ---- measurement ------------------------------------------------------------------------------

/** Alternating change: even runs add a fresh gitlab repository, odd runs remove the one just added. */
class Alternation {
  constructor(api, taskId, prefix) {
    Object.assign(this, { api, taskId, prefix, added: undefined, serial: 0 });
  }

  /** Sends the next change; resolves once its response body is read (the caller checks it). */
  async send() {
    if (this.added === undefined) {
      this.serial += 1;
      const remote_url = `https://gitlab.com/bench/${this.prefix}-${this.serial}`;
      const response = await this.api.addSources(this.taskId, [{ remote_url }]);
      return { kind: 'add', response, status: 201 };
    }
    const response = await this.api.removeSource(this.taskId, this.added);
    return { kind: 'remove', response, status: 200 };
  }

  /** Records what the change did (called after the caller checked the response). */
  applied({ kind, response }) {
    if (kind === 'remove') this.added = undefined;
    else if (response.body.added[0]?.provider !== 'gitlab') throw new Error(`added ${JSON.stringify(response.body)}`);
    else this.added = response.body.added[0].id;
  }
}

/**
 * Part 1 and its baseline, interleaved run by run (order alternating per add/remove pair) so that machine
 * noise lands on both. A live run: send the change, wait for the one list_changed, then a barrier
 * (tools/list on the same connection, which must show the change) and check no second one arrived.
 */
async function singleSession(backend, ids, options) {
  const liveTask = await backend.api.githubTask(ids.workspace, ids.github, 'live');
  const baselineTask = await backend.api.githubTask(ids.workspace, ids.github, 'baseline');
  const [client] = await liveClients(backend, liveTask, 1);
  const live = new Alternation(backend.api, liveTask, 'live');
  const baseline = new Alternation(backend.api, baselineTask, 'baseline');
  const samples = { rest: [], sent: [], answered: [], baseline: [], kinds: [] };

  const liveRun = async (run, record) => {
    const expected = client.count() + 1;
    const arrival = client.nth(expected);
    const sent = performance.now();
    const change = await live.send();
    const answered = performance.now();
    expectChange(`live run ${run} (${change.kind})`, change.response, change.status, 'applied', 1);
    live.applied(change);
    const notified = await within(
      arrival,
      NOTIFY_TIMEOUT_MS,
      `live run ${run} (${change.kind}): no list_changed`,
      backend.logs,
    );
    if ((await client.hasGitlabTools()) !== (change.kind === 'add')) {
      throw new Error(`live run ${run} (${change.kind}): the tool list does not show the change`);
    }
    if (client.count() !== expected) {
      throw new Error(`live run ${run} (${change.kind}): ${client.count() - expected + 1} list_changed for one change`);
    }
    if (!record) return;
    samples.kinds.push(change.kind);
    samples.rest.push(answered - sent);
    samples.sent.push(notified - sent);
    samples.answered.push(notified - answered);
  };
  const baselineRun = async (run, record) => {
    const sent = performance.now();
    const change = await baseline.send();
    const answered = performance.now();
    expectChange(`baseline run ${run} (${change.kind})`, change.response, change.status, 'not_needed', 0);
    baseline.applied(change);
    if (record) samples.baseline.push(answered - sent);
  };

  const total = options.warmup + options.runs;
  for (let run = 0; run < total; run++) {
    const record = run >= options.warmup;
    if (Math.floor(run / 2) % 2 === 0) {
      await liveRun(run, record);
      await baselineRun(run, record);
    } else {
      await baselineRun(run, record);
      await liveRun(run, record);
    }
  }
  // Every change was exactly one notification: none lost, none late (a late one shows up here at the latest).
  await client.hasGitlabTools();
  if (client.count() !== total) throw new Error(`${client.count()} list_changed for ${total} changes`);
  return { ...samples, changes: total, notifications: client.count() };
}

/**
 * Part 3: one task with `sessions` live sessions. Each round is one change (alternating add/remove);
 * timed from sending it until the last client received its list_changed. Then a bounded wait for a
 * late duplicate: a no-op batch round trip through the backend, and a tools/list round trip through
 * agentctl on every connection (which must show the change); only then are the counts checked.
 */
async function fanOut(backend, ids, options) {
  const taskId = await backend.api.githubTask(ids.workspace, ids.github, 'fan-out');
  const clients = await liveClients(backend, taskId, options.sessions);
  const alternation = new Alternation(backend.api, taskId, 'fan-out');
  const rounds = [];
  for (let round = 1; round <= options.rounds; round++) {
    const arrivals = Promise.all(clients.map((client) => client.nth(round)));
    const sent = performance.now();
    const change = await alternation.send();
    const answered = performance.now();
    const what = `fan-out round ${round} (${change.kind})`;
    expectChange(what, change.response, change.status, 'applied', options.sessions);
    alternation.applied(change);
    const notified = await within(
      arrivals,
      NOTIFY_TIMEOUT_MS,
      `${what}: not every client got list_changed`,
      backend.logs,
    );

    // The bounded wait for a late duplicate, then the count.
    const noop = await backend.api.addSources(taskId, [{ repository_id: ids.github }]);
    expectChange(`${what}: no-op batch`, noop, 200, 'not_needed', 0);
    const stale = (await Promise.all(clients.map((client) => client.hasGitlabTools()))).filter(
      (gitlab) => gitlab !== (change.kind === 'add'),
    ).length;
    if (stale > 0) throw new Error(`${what}: ${stale} clients do not list the change`);
    const counts = clients.map((client) => client.count() - (round - 1));
    const notifications = counts.reduce((sum, count) => sum + count, 0);
    if (counts.some((count) => count !== 1)) {
      const tally = new Map();
      for (const count of counts) tally.set(count, (tally.get(count) ?? 0) + 1);
      const described = [...tally].map(([count, clients]) => `${clients} clients got ${count}`).join(', ');
      throw new Error(`${what}: list_changed this round: ${described} (expected exactly 1 each)`);
    }
    const sorted = Float64Array.from(notified).sort();
    rounds.push({
      kind: change.kind,
      rest: answered - sent,
      first: sorted[0] - sent,
      median: quantile(sorted, 0.5) - sent,
      all: sorted[sorted.length - 1] - sent,
      notifications,
    });
  }
  return rounds;
}

/** Nearest-rank quantile of sorted samples. */
function quantile(sorted, p) {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  const at = (p) => quantile(sorted, p);
  return { count: sorted.length, mean, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] };
}

const ms = (value) => value.toFixed(3);
const ratio = (a, b) => `x${(a / b).toFixed(2)}`;
const cells = (...values) => `| ${values.join(' | ')} |`;

function statsRow(label, stats) {
  return cells(label, stats.count, ...[stats.mean, stats.p50, stats.p95, stats.p99, stats.max].map(ms));
}

function report(options, single, rounds, warnings) {
  const rest = summarize(single.rest);
  const answered = summarize(single.answered);
  const baseline = summarize(single.baseline);
  const early = single.answered.filter((value) => value <= 0).length;
  // Baseline run i made the same kind of change as live run i.
  const byKind = ['add', 'remove'].flatMap((kind) => {
    const pick = (values) => values.filter((_value, i) => single.kinds[i] === kind);
    if (pick(single.rest).length === 0) return [];
    const [a, b, c, base] = [single.rest, single.sent, single.answered, single.baseline].map(
      (values) => summarize(pick(values)).mean,
    );
    return [cells(kind, pick(single.rest).length, ...[a, b, c, base].map(ms), ratio(a, base))];
  });
  const median = (key) => quantile(Float64Array.from(rounds.map((round) => round[key])).sort(), 0.5);
  const lines = [
    "live source updates: REST change of a task's workspace sources -> notifications/tools/list_changed",
    `${options.runs} timed runs (${options.warmup} warm-up) per variant, ${options.sessions} sessions x ` +
      `${options.rounds} rounds for the fan-out; node ${process.version}, ${cpus().length} CPUs`,
    '',
    'single session: github-only task, 1 live session, 1 client; runs alternately add a fresh gitlab repository',
    '(POST workspace-sources) and remove it (DELETE). baseline: the same calls, interleaved, on a github-only',
    'task with no live session (refresh not_needed).',
    '',
    '| measure | runs | mean ms | p50 ms | p95 ms | p99 ms | max ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    statsRow('(a) REST call, 1 live session', rest),
    statsRow('(b) request sent -> list_changed', summarize(single.sent)),
    statsRow('(c) REST response -> list_changed', answered),
    statsRow('baseline: REST call, no live session', baseline),
    '',
    `live / baseline REST call: mean ${ratio(rest.mean, baseline.mean)} (+${ms(rest.mean - baseline.mean)} ms), ` +
      `p50 ${ratio(rest.p50, baseline.p50)}`,
    `list_changed arrived before the REST response ((c) <= 0) in ${early} of ${single.answered.length} runs; ` +
      `(c) ranged ${ms(Math.min(...single.answered))} .. ${ms(answered.max)} ms`,
    `list_changed received: ${single.notifications} for ${single.changes} changes (warm-up included)`,
    '',
    '| change | runs | (a) mean ms | (b) mean ms | (c) mean ms | baseline mean ms | (a) / baseline |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...byKind,
    '',
    `fan-out: one github-only task, ${options.sessions} live sessions, 1 client each; each round one change`,
    '(alternately add / remove a gitlab repository). Times from sending the REST request until the first,',
    'the median and the last client received its list_changed; counted after a no-op batch and a tools/list',
    'on every connection.',
    '',
    '| round | change | REST call ms | first client ms | median client ms | all clients ms | list_changed / sessions |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rounds.map((r, i) =>
      cells(i + 1, r.kind, ...[r.rest, r.first, r.median, r.all].map(ms), `${r.notifications} / ${options.sessions}`),
    ),
    cells('median', '', ...['rest', 'first', 'median', 'all'].map((key) => ms(median(key))), ''),
    '',
    `fan-out REST call (median) / baseline mean: ${ratio(median('rest'), baseline.mean)}; the live refresh adds ` +
      `${ms((median('rest') - baseline.mean) / options.sessions)} ms per session`,
    `warnings logged while measuring: backend ${warnings.backend}, agentctl ${warnings.agentctl}`,
  ];
  console.log(lines.join('\n'));
}

async function run(options) {
  try {
    const backend = await startBackend();
    const workspace = (await backend.api.create('/api/workspaces', { name: 'bench' })).id;
    const github = await backend.api.create('/api/repositories', {
      workspace_id: workspace,
      remote_url: 'https://github.com/bench/api',
    });
    if (github.provider !== 'github') throw new Error(`github repository registered as ${github.provider}`);
    const ids = { workspace, github: github.id };
    const before = backend.warnings();
    const single = await singleSession(backend, ids, options);
    const rounds = await fanOut(backend, ids, options);
    const after = backend.warnings();
    const warnings = { backend: after.backend - before.backend, agentctl: after.agentctl - before.agentctl };
    if (warnings.backend + warnings.agentctl > 0) console.error(backend.logs());
    report(options, single, rounds, warnings);
  } finally {
    await runCleanups();
  }
}

async function main() {
  const options = parseOptions();
  const budget =
    FIXED_BUDGET_MS +
    (options.runs + options.warmup) * PER_RUN_BUDGET_MS +
    options.sessions * (options.rounds + 1) * PER_SESSION_ROUND_BUDGET_MS;
  const watchdog = setTimeout(() => stopAndExit(1, `gave up after ${Math.round(budget / 1000)} s`), budget);
  watchdog.unref();
  // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and forwarded by bench.mjs), and the
  // second must not kill it with its cleanup half done.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stopAndExit(130, `${signal}: stopping`));
  await run(options);
  clearTimeout(watchdog);
}

main().then(
  () => process.exit(0),
  (err) => {
    // Calls in flight fail once stopAndExit stops the backend; it exits on its own.
    if (isStopping()) return;
    if (err instanceof UsageError) {
      console.error(`live-update: ${err.message}\nusage: ${USAGE}`);
      process.exit(2);
    }
    console.error(`live-update: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
