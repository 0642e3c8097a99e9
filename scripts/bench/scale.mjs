// Cost as sessions grow, on one agentctl, measured at several sizes (default 100, 1,000, 10,000):
//   node scripts/bench/scale.mjs [--sizes 100,1000,10000] [--iterations 300] [--warmup 100] [--rounds 3]
//                                [--sample 10] [--plots docs/benchmarks] [--part both|agentctl|backend]
// Per size: the agentctl part (scale-agentctl.mjs: tools/list p50 against McpServer, memory per idle
// session) and the backend part (scale-backend.mjs: fan-out of one change, restart reconcile). Prints a
// table per curve with its growth factor, writes one SVG per curve (--plots '' writes none) and a
// target line per goal, judged at the largest size.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { integerOption, LARGEST_LAUNCH_CONFIG, parseBenchArgs, runBenchmark, UsageError } from './bench-entry.mjs';
import { createProcessScope } from './bench-processes.mjs';
import { measureAgentctl } from './scale-agentctl.mjs';
import { measureBackend } from './scale-backend.mjs';
import { lineChart } from './svg-plot.mjs';
import { ratio, reportTarget } from './targets.mjs';
import { startDaemons } from './tools-list-daemons.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const USAGE =
  'node scripts/bench/scale.mjs [--sizes 100,1000,10000] [--iterations 300] [--warmup 100] [--rounds 3] ' +
  '[--sample 10] [--plots docs/benchmarks] [--part both|agentctl|backend]';
// Bounded even if a daemon hangs: a fixed allowance plus 60 ms per session of every size.
const FIXED_BUDGET_MS = 180_000;
const PER_SESSION_BUDGET_MS = 60;
const KB = 1024;

function parseOptions() {
  const values = parseBenchArgs({
    sizes: { type: 'string', default: '100,1000,10000' },
    iterations: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '3' },
    sample: { type: 'string', default: '10' },
    plots: { type: 'string', default: 'docs/benchmarks' },
    part: { type: 'string', default: 'both' },
  });
  const sizes = values.sizes.split(',').map((size) => integerOption(size, 'sizes', 1));
  if (sizes.some((size, i) => i > 0 && size <= sizes[i - 1])) throw new UsageError('--sizes must ascend');
  if (!['both', 'agentctl', 'backend'].includes(values.part)) throw new UsageError('--part: both, agentctl or backend');
  return {
    sizes,
    iterations: integerOption(values.iterations, 'iterations', 1),
    warmup: integerOption(values.warmup, 'warmup', 0),
    rounds: integerOption(values.rounds, 'rounds', 1),
    sample: integerOption(values.sample, 'sample', 1),
    plots: values.plots,
    part: values.part,
  };
}

const scope = createProcessScope({ name: 'scale', stopGraceMs: 10_000, exitGraceMs: 30_000 });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
const size = (n) => n.toLocaleString('en-US');
const fixed = (value) => value.toFixed(2);

/** A curve's table and growth factor (last over first, and step by step). */
function printCurve(title, unit, series) {
  const sizes = series[0].points.map(([n]) => n);
  console.log(`\n${title}\n`);
  console.log(`| sessions | ${series.map((s) => `${s.label} ${unit}`).join(' | ')} |`);
  console.log(`| ---: | ${series.map(() => '---:').join(' | ')} |`);
  sizes.forEach((n, i) => console.log(`| ${size(n)} | ${series.map((s) => fixed(s.points[i][1])).join(' | ')} |`));
  for (const s of series) {
    const ys = s.points.map(([, y]) => y);
    const steps = ys.slice(1).map((y, i) => `${size(sizes[i])} -> ${size(sizes[i + 1])} ${ratio(y / ys[i])}`);
    console.log(
      `growth of ${s.label}: ${ratio(ys[ys.length - 1] / ys[0])} over x${sizes[sizes.length - 1] / sizes[0]} sessions (${steps.join(', ')})`,
    );
  }
}

function plot(options, file, chart) {
  if (options.plots === '' || chart.series[0].points.length < 2) return;
  const dir = resolve(root, options.plots);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, file), lineChart(chart));
  console.log(`plot: ${join(options.plots, file)}`);
}

function reportAgentctl(options, runs) {
  const at = (pick) => runs.map((run) => [run.sessions, pick(run)]);
  const latency = [
    { label: 'agentctl', points: at((r) => r.oursP50) },
    { label: 'McpServer', points: at((r) => r.theirsP50) },
  ];
  printCurve('tools/list p50 with N sessions connected', 'ms', latency);
  printCurve('tools/list p50, agentctl / McpServer', '', [{ label: 'ratio', points: at((r) => r.ratio) }]);
  const memory = [
    { label: 'heap', points: at((r) => r.heapPerSession / KB) },
    { label: 'RSS', points: at((r) => r.rssPerSession / KB) },
    { label: 'McpServer heap', points: at((r) => r.baselineHeapPerSession / KB) },
  ];
  printCurve('memory per idle connected session', 'KB', memory);
  plot(options, 'scale-tools-list.svg', {
    title: 'tools/list p50 with N sessions connected',
    xLabel: 'sessions connected',
    yLabel: 'ms',
    series: latency,
  });
  plot(options, 'scale-memory.svg', {
    title: 'memory per idle connected session',
    xLabel: 'sessions',
    yLabel: 'KB',
    series: memory,
    goal: { y: 25, label: 'heap goal 25 KB' },
  });
  const last = runs[runs.length - 1];
  const n = size(last.sessions);
  return [
    () =>
      reportTarget(
        `tools/list p50, ${n} sessions connected`,
        `${ratio(last.ratio)} McpServer`,
        '<= x0.40 McpServer',
        last.ratio <= 0.4,
      ),
    () =>
      reportTarget(
        `memory per idle session, ${n} sessions (heap / RSS)`,
        `${(last.heapPerSession / KB).toFixed(1)} / ${(last.rssPerSession / KB).toFixed(1)} KB`,
        '<= 25 / <= 40 KB',
        last.heapPerSession <= 25 * KB && last.rssPerSession <= 40 * KB,
      ),
  ];
}

function reportBackend(options, runs) {
  const at = (pick) => runs.map((run) => [run.sessions, pick(run)]);
  const fan = [
    { label: 'last client', points: at((r) => median(r.rounds.map((round) => round.all))) },
    { label: 'REST', points: at((r) => median(r.rounds.map((round) => round.rest))) },
  ];
  printCurve(`fan-out of one change to N sessions (median of ${options.rounds} rounds)`, 'ms', fan);
  const restart = [
    { label: 'ready', points: at((r) => r.restart.readyMs / 1000) },
    { label: 'all reconciled', points: at((r) => r.restart.repairedMs / 1000) },
  ];
  printCurve('backend restart with N live sessions, from spawn', 's', restart);
  for (const run of runs)
    console.log(`launch of ${size(run.sessions)} sessions: ${(run.launchMs / 1000).toFixed(1)} s`);
  plot(options, 'scale-fan-out.svg', {
    title: 'fan-out of one change to N sessions',
    xLabel: 'sessions',
    yLabel: 'ms',
    series: fan,
    goal: { y: 1000, label: 'last client 1 s' },
  });
  plot(options, 'scale-restart.svg', {
    title: 'backend restart with N live sessions',
    xLabel: 'sessions',
    yLabel: 's from spawn',
    series: restart,
    goal: { y: 10, label: 'goal 10 s' },
  });
  const last = runs[runs.length - 1];
  const n = size(last.sessions);
  const [all, rest] = fan.map((s) => s.points[s.points.length - 1][1]);
  const reconciled = last.restart.repairedMs / 1000;
  return [
    () =>
      reportTarget(
        `fan-out to ${n} sessions, last client / REST`,
        `${all.toFixed(0)} / ${rest.toFixed(0)} ms`,
        '<= 1000 / <= 400 ms',
        all <= 1000 && rest <= 400,
      ),
    () =>
      reportTarget(
        `backend restart with ${n} live sessions, all reconciled`,
        `${reconciled.toFixed(2)} s, none lost or duplicated`,
        '<= 10 s',
        reconciled <= 10,
      ),
  ];
}

async function main(options) {
  const load = loadavg().map((l) => l.toFixed(2));
  console.log(
    `scale: sessions ${options.sizes.map(size).join(' / ')}; node ${process.version}, ${cpus().length} CPUs, load ${load.join(' ')}`,
  );
  const targets = [];
  if (options.part !== 'backend') {
    const daemons = startDaemons(scope, root);
    const runs = [];
    for (const n of options.sizes) {
      console.error(`scale: agentctl part, ${size(n)} sessions`);
      runs.push(await measureAgentctl(scope, daemons, n, options, LARGEST_LAUNCH_CONFIG));
    }
    targets.push(...reportAgentctl(options, runs));
  }
  if (options.part !== 'agentctl') {
    const runs = [];
    for (const n of options.sizes) {
      console.error(`scale: backend part, ${size(n)} sessions`);
      runs.push(await measureBackend(scope, n, options));
    }
    targets.push(...reportBackend(options, runs));
  }
  return targets;
}

runBenchmark({
  name: 'scale',
  usage: USAGE,
  scope,
  parseOptions,
  budgetMs: (options) =>
    FIXED_BUDGET_MS +
    options.sizes.reduce((sum, n) => sum + n, 0) * PER_SESSION_BUDGET_MS * (options.part === 'both' ? 2 : 1),
  main,
});
