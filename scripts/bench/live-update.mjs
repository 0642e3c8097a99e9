// Live source updates and launches at scale, on SQLite and on PostgreSQL:
//   node scripts/bench/live-update.mjs [--runs 1000] [--warmup 300] [--sessions 1000] [--rounds 3]
//                                      [--database both|sqlite|postgres]
// Per database, one real backend with its own local agentctl (live-update-backend.mjs); every client
// (REST, and the official MCP SDK client with its GET notification stream open) is this process, apart
// from the daemons, so REST timings and notification arrivals share one clock:
//  1. single session: a github-only task with one live session; each run adds a fresh gitlab repository
//     or removes it again (exactly one list_changed); baseline, interleaved: the same calls on a task with
//     no session.
//  2. launch: --sessions launches of one task (agentctl warm, no agent), each followed by GET /healthz.
//  3. fan-out: those sessions, one client each; each round one change every client must get exactly once.
import { cpus } from 'node:os';
import { integerOption, parseBenchArgs, quantile, runBenchmark, UsageError } from './bench-entry.mjs';
import { createProcessScope } from './bench-processes.mjs';
import { postgresInstalled, startBackend } from './live-update-backend.mjs';
import { within } from './live-update-clients.mjs';
import { fanOut, launchFanOut, singleSession } from './live-update-runs.mjs';
import { ms, ratio, reportTarget } from './targets.mjs';

const USAGE =
  'node scripts/bench/live-update.mjs [--runs 1000] [--warmup 300] [--sessions 1000] [--rounds 3] ' +
  '[--database both|sqlite|postgres]';
const STOP_GRACE_MS = 5_000;
// The run is bounded even if a daemon hangs: a fixed allowance per database, plus 250 ms per
// single-session run and 100 ms per session and round.
const FIXED_BUDGET_MS = 120_000;
const PER_RUN_BUDGET_MS = 250;
const PER_SESSION_ROUND_BUDGET_MS = 100;
const DATABASES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

function parseOptions() {
  const values = parseBenchArgs({
    runs: { type: 'string', default: '1000' },
    warmup: { type: 'string', default: '300' },
    sessions: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '3' },
    database: { type: 'string', default: 'both' },
  });
  const count = (name, min) => integerOption(values[name], name, min);
  if (!['both', ...Object.keys(DATABASES)].includes(values.database)) {
    throw new UsageError('--database must be both, sqlite or postgres');
  }
  return {
    runs: count('runs', 1),
    warmup: count('warmup', 0),
    sessions: count('sessions', 1),
    rounds: count('rounds', 1),
    databases: values.database === 'both' ? Object.keys(DATABASES) : [values.database],
  };
}

const scope = createProcessScope({ name: 'live-update', stopGraceMs: STOP_GRACE_MS, exitGraceMs: 3 * STOP_GRACE_MS });

const mean = (samples) => samples.reduce((sum, value) => sum + value, 0) / samples.length;
const row = (...cells) => `| ${cells.join(' | ')} |`;
const stats = (label, samples) =>
  row(
    label,
    samples.length,
    ...[mean(samples), quantile(samples, 0.5), quantile(samples, 0.99)].map((v) => v.toFixed(3)),
  );

/** PostgreSQL's floor: `SELECT 1` from this process, one after each baseline call (none on SQLite). */
const roundTrips = (when, samples) =>
  samples.length === 0 ? [] : [stats(`baseline: PostgreSQL round trip (SELECT 1), ${when}`, samples)];

/** One database: start its backend, measure, stop it; returns the figures. */
async function measure(database, options) {
  const clients = [];
  try {
    const backend = await startBackend(scope, { database, sessions: options.sessions });
    // Registered after the backend's stop: cleanups run in reverse, so clients close first.
    scope.cleanups.push(() =>
      within(Promise.allSettled(clients.map((c) => c.close())), 30_000, 'MCP clients did not close', () => ''),
    );
    const workspace = (await backend.api.create('/api/workspaces', { name: 'bench' })).id;
    const github = await backend.api.create('/api/repositories', {
      workspace_id: workspace,
      remote_url: 'https://github.com/bench/api',
    });
    const ids = { workspace, github: github.id };
    const before = backend.warnings();
    const single = await singleSession(backend, ids, options, clients);
    const fan = await launchFanOut(backend, ids, options.sessions, clients);
    const rounds = await fanOut(backend, ids, fan, options);
    const after = backend.warnings();
    const warnings = after.backend - before.backend + after.agentctl - before.agentctl;
    if (warnings > 0) console.error(backend.logs());
    return { single, launches: fan.samples, rounds, warnings };
  } finally {
    await scope.runCleanups();
  }
}

function report(database, options, figures) {
  const name = DATABASES[database];
  const { single, launches, rounds } = figures;
  console.log(
    [
      '',
      `${name}: ${options.runs} single-session runs (${options.warmup} warm-up) per variant, ` +
        `${options.sessions} launches, fan-out to ${options.sessions} sessions x ${options.rounds} rounds`,
      '',
      '| measure | n | mean ms | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: | ---: |',
      stats('REST change, 1 live session', single.rest),
      stats('request -> list_changed, 1 live session', single.sent),
      stats('baseline: REST change, no live session', single.baseline),
      ...roundTrips('between single-session runs', single.roundTrip),
      stats('launch (POST /api/tasks/:id/sessions)', launches.launch),
      stats('baseline: GET /healthz', launches.healthz),
      ...roundTrips('between launches', launches.roundTrip),
      ...rounds.map((r, i) =>
        row(`fan-out round ${i + 1} (${r.kind}): REST / last client`, 1, r.rest.toFixed(3), r.all.toFixed(3), ''),
      ),
      '',
      `warnings logged while measuring: ${figures.warnings}`,
    ].join('\n'),
  );
  const restRatio = mean(single.rest) / mean(single.baseline);
  const [p50, p99] = [quantile(single.sent, 0.5), quantile(single.sent, 0.99)];
  const [fanAll, fanRest] = [
    quantile(
      rounds.map((r) => r.all),
      0.5,
    ),
    quantile(
      rounds.map((r) => r.rest),
      0.5,
    ),
  ];
  const launchP50 = quantile(launches.launch, 0.5);
  const fanName = `fan-out to ${options.sessions.toLocaleString('en')} sessions, last client / REST`;
  return [
    () =>
      reportTarget(
        `request -> list_changed p50 / p99, one session (${name})`,
        `${p50.toFixed(2)} / ${p99.toFixed(2)} ms`,
        '<= 5 / <= 15 ms',
        p50 <= 5 && p99 <= 15,
      ),
    () =>
      reportTarget(
        `REST batch with one live session (${name})`,
        `${ratio(restRatio)} baseline mean`,
        '<= x1.30',
        restRatio <= 1.3,
      ),
    () =>
      reportTarget(
        `${fanName} (${name})`,
        `${fanAll.toFixed(0)} / ${fanRest.toFixed(0)} ms`,
        '<= 250 / <= 400 ms',
        fanAll <= 250 && fanRest <= 400,
      ),
    () => reportTarget(`launch p50, agentctl warm, no agent (${name})`, ms(launchP50), '<= 10 ms', launchP50 <= 10),
  ];
}

async function main(options) {
  console.log(`live source updates and launches; node ${process.version}, ${cpus().length} CPUs`);
  const targets = [];
  for (const database of options.databases) {
    if (database === 'postgres' && !postgresInstalled()) {
      console.log('\nPostgreSQL: not installed (apt-get install postgresql); its targets are not met');
      targets.push(() => reportTarget('live updates on PostgreSQL', 'not run', 'run', false));
      continue;
    }
    targets.push(...report(database, options, await measure(database, options)));
  }
  return targets;
}

runBenchmark({
  name: 'live-update',
  usage: USAGE,
  scope,
  parseOptions,
  budgetMs: (options) =>
    options.databases.length *
    (FIXED_BUDGET_MS +
      (options.runs + options.warmup) * PER_RUN_BUDGET_MS +
      options.sessions * (options.rounds + 2) * PER_SESSION_ROUND_BUDGET_MS),
  main,
});
