// How many jest workers the test scripts start. Most suites wait on real processes (daemons, a
// database, Chromium) far more than they compute: on 2 CPUs, two workers left the CPUs about half
// idle. Twice the CPUs keeps them busy without starving the daemons; KANDEV_TEST_WORKERS overrides.
import { availableParallelism } from 'node:os';

export function testWorkers(env = process.env, perCpu = 2) {
  const chosen = env.KANDEV_TEST_WORKERS ?? '';
  if (chosen !== '') return chosen;
  return String(Math.min(8, perCpu * availableParallelism()));
}

/**
 * `args` with a `--maxWorkers` added unless they already choose one: `perCpu` workers per CPU (one for
 * suites whose every test drives a browser, which computes as much as it waits).
 */
export function withWorkers(args, env = process.env, perCpu = 2) {
  return args.some((arg) => arg.startsWith('--maxWorkers') || arg === '-w' || arg === '--runInBand' || arg === '-i')
    ? args
    : [...args, `--maxWorkers=${testWorkers(env, perCpu)}`];
}
