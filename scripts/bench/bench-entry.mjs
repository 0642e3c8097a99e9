// What every benchmark's entry script shares: its options (a usage error exits 2 with the usage line),
// a watchdog and Ctrl-C handling around the run, and the exit once it ends.
import { randomBytes } from 'node:crypto';
import { clearTimeout, setTimeout } from 'node:timers';
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

/** The values of `options` (parseArgs, strict); an unknown or malformed option is a UsageError. */
export function parseBenchArgs(options) {
  try {
    return parseArgs({ options, strict: true }).values;
  } catch (err) {
    throw new UsageError(err.message);
  }
}

/** `text` as an integer >= `min`, else a UsageError naming `--name`. */
export function integerOption(text, name, min) {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min) throw new UsageError(`--${name} must be an integer >= ${min}`);
  return value;
}

/** Nearest-rank quantile of unsorted samples. */
export function quantile(samples, p) {
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)];
}

/** The largest realistic tool list (16 tools): kanban task, asks the user, both providers, owns its title. */
export const LARGEST_LAUNCH_CONFIG = {
  sessionId: '6b656e64-6576-4265-8e63-68746f6f6c73', // CreateSession accepts only UUIDs
  taskId: 'bench-task',
  workspaceId: 'bench-workspace',
  surface: 'kanban_task',
  questionCapability: 'user',
  providers: ['github', 'gitlab'],
  revision: 1,
  ownsTaskTitle: true,
  mcpToken: randomBytes(24).toString('hex'),
  systemPrompt: 'benchmark',
  agent: null,
};

/**
 * Runs `main` (resolving the target lines to print) within `budgetMs(options)`, stopping `scope`'s
 * processes on Ctrl-C, a hang or a failure; exits 0 once the targets are printed, 2 on a usage error.
 */
export function runBenchmark({ name, usage, scope, parseOptions, budgetMs, main }) {
  const run = async () => {
    const options = parseOptions();
    const budget = budgetMs(options);
    const watchdog = setTimeout(() => scope.stopAndExit(1, `gave up after ${Math.round(budget / 1000)} s`), budget);
    watchdog.unref();
    // `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and forwarded by bench.mjs).
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => scope.stopAndExit(130, `${signal}: stopping`));
    const targets = await main(options);
    clearTimeout(watchdog);
    console.log('');
    for (const target of targets) target();
  };
  run().then(
    () => process.exit(0),
    (err) => {
      // Calls in flight fail once stopAndExit stops the daemons; it exits on its own.
      if (scope.isStopping()) return;
      if (err instanceof UsageError) {
        console.error(`${name}: ${err.message}\nusage: ${usage}`);
        process.exit(2);
      }
      console.error(`${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      scope.stopAndExit(1, 'failed');
    },
  );
}
