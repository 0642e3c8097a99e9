// The cost as the data grows, on SQLite and on PostgreSQL (fsync on):
//   node scripts/bench/data-growth.mjs [--scale 1] [--runs 300] [--warmup 100] [--live-runs 500]
//                                      [--live-warmup 300] [--database both|sqlite|postgres] [--plot <file.svg>]
// Per store, three databases: empty, 10 % and full (--scale × 100,000 tasks in 100 workspaces, 1,000,000
// messages, 2,000,000 events; scripts/fill-database.mjs), each filled once into a template and copied for
// every backend (data-growth-stores.mjs). One backend per size, side by side, with retention set to keep
// everything: each one's start to ready, then the reads an operator makes (data-growth-reads.mjs) and
// request -> list_changed (live-update-runs.mjs), the sizes taking turns so that machine noise lands on
// all of them. Then once more on a copy of the full database with a small row bound: the pruner drops the
// backlog in batches while request -> list_changed is measured again.
import { cpus } from 'node:os';
import { FULL_SIZE } from '../fill-database.mjs';
import { parseBenchArgs, quantile, runBenchmark, UsageError } from './bench-entry.mjs';
import { createProcessScope } from './bench-processes.mjs';
import { postgresInstalled, startBackend } from './live-update-backend.mjs';
import { within } from './live-update-clients.mjs';
import { singleSession } from './live-update-runs.mjs';
import { oldestRetained, operatorReads, timeReads } from './data-growth-reads.mjs';
import { seedTemplates } from './data-growth-stores.mjs';
import { writeSvgPlot } from './svg-plot.mjs';
import { ms, ratio, reportTarget } from './targets.mjs';

const USAGE =
  'node scripts/bench/data-growth.mjs [--scale 1] [--runs 300] [--warmup 100] [--live-runs 500] ' +
  '[--live-warmup 300] [--database both|sqlite|postgres] [--plot <file.svg>]';
const DATABASES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const KEEP_EVERYTHING = { KANDEV_EVENT_RETENTION_DAYS: '3650', KANDEV_EVENT_RETENTION_MAX_ROWS: '100000000' };
// The pruning run: the default age, and the smallest row bound, so nearly the whole log is a backlog.
const PRUNE_MOST = { KANDEV_EVENT_RETENTION_MAX_ROWS: '1000' };
const GROWTH_GOAL = 1.25;
const START_GOAL_MS = 5_000;
const LIVE = 'request -> list_changed';

function parseOptions() {
  const values = parseBenchArgs({
    scale: { type: 'string', default: '1' },
    runs: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '100' },
    'live-runs': { type: 'string', default: '500' },
    'live-warmup': { type: 'string', default: '300' },
    database: { type: 'string', default: 'both' },
    plot: { type: 'string', default: 'docs/benchmarks/data-growth.svg' },
  });
  const number = (name, min) => {
    const value = Number(values[name]);
    if (!Number.isFinite(value) || value < min) throw new UsageError(`--${name} must be a number >= ${min}`);
    return value;
  };
  if (!['both', ...Object.keys(DATABASES)].includes(values.database)) {
    throw new UsageError('--database must be both, sqlite or postgres');
  }
  const scale = number('scale', 0.001);
  const sized = (fraction) =>
    Object.fromEntries(
      Object.entries(FULL_SIZE).map(([key, value]) => [key, Math.max(1, Math.round(value * scale * fraction))]),
    );
  return {
    levels: [
      { name: 'empty', label: 'empty' },
      { name: 'tenth', label: '10 %', size: sized(0.1) },
      { name: 'full', label: 'full', size: sized(1) },
    ],
    runs: Math.round(number('runs', 1)),
    warmup: Math.round(number('warmup', 0)),
    live: { runs: Math.round(number('live-runs', 1)), warmup: Math.round(number('live-warmup', 0)) },
    databases: values.database === 'both' ? Object.keys(DATABASES) : [values.database],
    plot: values.plot,
  };
}

const scope = createProcessScope({ name: 'data-growth', stopGraceMs: 5_000, exitGraceMs: 15_000 });

/**
 * One backend per template, each on a fresh copy, started one after another (each start timed alone),
 * measured together by `work(backends, clients)`; everything stopped after.
 */
async function onCopies(store, templates, database, env, work) {
  const copies = [];
  const clients = [];
  const cleanupsBefore = scope.cleanups.length;
  try {
    const backends = [];
    for (const template of templates) {
      const copy = await store.copy(template);
      copies.push(copy);
      backends.push(await startBackend(scope, { database, sessions: 1, ...copy, env }));
    }
    scope.cleanups.push(() =>
      within(Promise.allSettled(clients.map((c) => c.close())), 30_000, 'MCP clients did not close', () => ''),
    );
    return await work(backends, clients);
  } finally {
    // These copies' backends and clients only (the templates' cleanups stay).
    for (const cleanup of scope.cleanups.splice(cleanupsBefore).reverse()) await cleanup();
    for (const copy of copies) await copy.remove();
  }
}

// request -> list_changed runs in this many chunks per backend, the backends taking turns: machine
// noise lands on every size alike.
const LIVE_CHUNKS = 5;
const LIVE_CHUNK_WARMUP = 50;

/** request -> list_changed on one live session per chunk, backends in turn: p50 and p99 (ms) of each. */
async function liveUpdates(backends, clients, live) {
  const ids = [];
  for (const backend of backends) {
    const workspace = (await backend.api.create('/api/workspaces', { name: 'bench' })).id;
    const github = await backend.api.create('/api/repositories', {
      workspace_id: workspace,
      remote_url: 'https://github.com/bench/api',
    });
    ids.push({ workspace, github: github.id });
  }
  const samples = backends.map(() => ({ sent: [], rest: [], baseline: [] }));
  const runs = Math.max(1, Math.round(live.runs / LIVE_CHUNKS));
  for (let chunk = 0; chunk < LIVE_CHUNKS; chunk++) {
    const warmup = chunk === 0 ? live.warmup : LIVE_CHUNK_WARMUP;
    for (const [i, backend] of backends.entries()) {
      const single = await singleSession(backend, ids[i], { runs, warmup }, clients);
      for (const key of ['sent', 'rest', 'baseline']) samples[i][key].push(...single[key]);
    }
  }
  // The REST round trips too: whether a change grows with the data apart from its notification.
  return samples.map(({ sent, rest, baseline }) => ({
    p50: quantile(sent, 0.5),
    p99: quantile(sent, 0.99),
    restP50: quantile(rest, 0.5),
    baselineP50: quantile(baseline, 0.5),
  }));
}

/** One store: every level side by side, then the pruning run; resolves the figures. */
async function measure(database, options) {
  const log = (line) => process.stderr.write(line);
  const { store, templates } = await seedTemplates(scope, database, options.levels, log);
  const levelTemplates = options.levels.map((level) => templates[level.name]);
  const levels = await onCopies(store, levelTemplates, database, KEEP_EVERYTHING, async (backends, clients) => {
    const reads = backends.map((backend) => operatorReads(backend));
    // Every read of every size, call by call.
    const samples = await timeReads(reads.flat(), options);
    const live = await liveUpdates(backends, clients, options.live);
    return options.levels.map((level, i) => ({
      level,
      startMs: backends[i].startMs,
      reads: reads[i].map((read, j) => ({ name: read.name, p50: quantile(samples[i * reads[i].length + j], 0.5) })),
      live: live[i],
    }));
  });
  const full = templates[options.levels[options.levels.length - 1].name];
  const pruning = await onCopies(store, [full], database, PRUNE_MOST, async ([backend], clients) => {
    // The pruner starts with the backend: what it dropped by the start of the runs, and by their end.
    const before = (await oldestRetained(backend)) - 1;
    const [live] = await liveUpdates([backend], clients, options.live);
    const after = (await oldestRetained(backend)) - 1;
    return { live, before, pruned: after };
  });
  return { levels, pruning };
}

function report(database, figures) {
  const name = DATABASES[database];
  const [empty, , full] = figures.levels;
  const lines = ['', `${name}: p50 ms per database size (growth factor against empty)`, ''];
  const curve = (label, values) =>
    `growth: ${label} (${name}): ${values
      .map((v, i) => `${figures.levels[i].level.label} ${v.toFixed(2)}${i === 0 ? '' : ` (${ratio(v / values[0])})`}`)
      .join(', ')}`;
  for (const [i, read] of empty.reads.entries())
    lines.push(
      curve(
        read.name,
        figures.levels.map((l) => l.reads[i].p50),
      ),
    );
  lines.push(
    curve(
      `${LIVE} p50`,
      figures.levels.map((l) => l.live.p50),
    ),
  );
  lines.push(
    curve(
      `${LIVE} p99`,
      figures.levels.map((l) => l.live.p99),
    ),
  );
  lines.push(
    curve(
      'REST change, 1 live session, p50',
      figures.levels.map((l) => l.live.restP50),
    ),
  );
  lines.push(
    curve(
      'baseline: REST change, no live session, p50',
      figures.levels.map((l) => l.live.baselineP50),
    ),
  );
  lines.push(
    curve(
      'start to ready',
      figures.levels.map((l) => l.startMs),
    ),
  );
  const { before, pruned: dropped } = figures.pruning;
  lines.push(
    `pruning: ${before.toLocaleString('en')} events dropped when the runs began, ${dropped.toLocaleString('en')} ` +
      `when they ended (p50 / p99 ${figures.pruning.live.p50.toFixed(2)} / ${figures.pruning.live.p99.toFixed(2)} ms)`,
  );
  console.log(lines.join('\n'));
  const targets = full.reads.map((read, i) => {
    const factor = read.p50 / empty.reads[i].p50;
    return () =>
      reportTarget(
        `${read.name} p50, full database (${name})`,
        `${ratio(factor)} empty (${ms(read.p50)})`,
        `<= x${GROWTH_GOAL.toFixed(2)}`,
        factor <= GROWTH_GOAL,
      );
  });
  const liveFactor = full.live.p50 / empty.live.p50;
  const { live: pruneLive, pruned } = figures.pruning;
  targets.push(
    () =>
      reportTarget(
        `${LIVE} p50 / p99, full database (${name})`,
        `${ratio(liveFactor)} empty / ${ms(full.live.p99)}`,
        `<= x${GROWTH_GOAL.toFixed(2)} / <= 15 ms`,
        liveFactor <= GROWTH_GOAL && full.live.p99 <= 15,
      ),
    () =>
      reportTarget(
        `${LIVE} p50 / p99 while pruning (${name})`,
        `${pruneLive.p50.toFixed(2)} / ${pruneLive.p99.toFixed(2)} ms, ${pruned.toLocaleString('en')} pruned`,
        '<= 5 / <= 15 ms, some pruned',
        pruneLive.p50 <= 5 && pruneLive.p99 <= 15 && pruned > 0,
      ),
    () =>
      reportTarget(
        `backend start to ready, full database (${name})`,
        ms(full.startMs),
        `<= ${START_GOAL_MS} ms`,
        full.startMs <= START_GOAL_MS,
      ),
  );
  return targets;
}

async function main(options) {
  const size = options.levels[2].size;
  console.log(
    `data growth; node ${process.version}, ${cpus().length} CPUs; full database: ${size.tasks.toLocaleString('en')} ` +
      `tasks in ${size.workspaces} workspaces, ${size.messages.toLocaleString('en')} messages, ` +
      `${size.events.toLocaleString('en')} events`,
  );
  const targets = [];
  const series = [];
  for (const database of options.databases) {
    if (database === 'postgres' && !postgresInstalled()) {
      console.log('\nPostgreSQL: not installed (apt-get install postgresql); its targets are not met');
      targets.push(() => reportTarget('data growth on PostgreSQL', 'not run', 'run', false));
      continue;
    }
    try {
      const figures = await measure(database, options);
      targets.push(...report(database, figures));
      for (const [i, read] of figures.levels[0].reads.entries()) {
        series.push({
          name: `${read.name} (${DATABASES[database]})`,
          values: figures.levels.map((l) => l.reads[i].p50),
        });
      }
      series.push({ name: `${LIVE} p50 (${DATABASES[database]})`, values: figures.levels.map((l) => l.live.p50) });
    } finally {
      await scope.runCleanups();
    }
  }
  if (series.length > 0 && options.plot !== '') {
    writeSvgPlot(options.plot, {
      title: 'p50 as the database grows',
      xLabels: options.levels.map((l) => l.label),
      yLabel: 'ms',
      series,
    });
    console.log(`\nplot: ${options.plot}`);
  }
  return targets;
}

runBenchmark({
  name: 'data-growth',
  usage: USAGE,
  scope,
  parseOptions,
  // Seeding the full database alone takes minutes on a slow disk: a day bounds only a hang.
  budgetMs: () => 24 * 3_600_000,
  main,
});
