#!/usr/bin/env node
// The quick start on another Node line, in this checkout. Fetches that Node from the npm registry
// (node-<platform>-<arch>, kept in node_modules/.cache/node) and runs, with it first on PATH:
//   1. `npm start` (a temp data dir, OS-chosen ports): at its ready line `kandev status` must pass, then
//      Ctrl-C (SIGINT to its process group, as a terminal sends it) must stop it with exit 0, its
//      agentctl included;
//   2. `npm run demo`;
//   3. the unit and service tests (SQLite).
// The first step rebuilds the native modules for that Node, or puts back the build kept for its ABI;
// the next run on the usual Node puts its own build back (scripts/lib/native-modules.mjs).
//   node scripts/check-node.mjs <major | range | x.y.z>      # e.g. 24; .ci/run runs it after npm test
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readReadyLine, signalPid } from './bench/bench-processes.mjs';
import { waitFor } from './demo/rest.mjs';
import { embeddedBackendEnv } from './lib/embedded-backend-env.mjs';
import { fetchNode } from './lib/node-package.mjs';
import { pathWithNode } from './lib/node-release.mjs';
import { root } from './lib/workspace.mjs';

/** The first start may rebuild better-sqlite3 (a minute or three on 2 busy CPUs) before it builds. */
const START_TIMEOUT_MS = 10 * 60_000;
const STOP_TIMEOUT_MS = 15_000;

const spec = process.argv[2];
if (spec === undefined || process.argv.length > 3) {
  console.error('usage: node scripts/check-node.mjs <major | range | x.y.z>   (e.g. 24)');
  process.exit(2);
}
const node = (() => {
  try {
    return fetchNode(spec);
  } catch (err) {
    console.error(`check-node: ${err.message}`);
    process.exit(1);
  }
})();
// A shell with that Node first on PATH: no npm_* variables of an npm that may have started this script.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
env.PATH = pathWithNode(env.PATH ?? '', node.bin);
const results = [];

function fail(message) {
  console.error(`check-node ${node.version}: FAILED: ${message}`);
  process.exit(1);
}

async function step(name, body) {
  console.error(`\n== Node ${node.version}: ${name} ==`);
  const started = Date.now();
  await body();
  results.push(`${name} ${Math.round((Date.now() - started) / 1000)} s`);
}

/** npm start until its ready line, `kandev status` against it, then Ctrl-C. */
async function quickStart() {
  const dataDir = mkdtempSync(join(tmpdir(), 'kandev-check-node-'));
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...env, ...embeddedBackendEnv(dataDir), PATH: env.PATH },
    detached: true, // its own process group, like a terminal's foreground job
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let agentctlPid;
  // Also on a failure's exit: nothing it started stays behind.
  const cleanUp = () => {
    signalPid(-child.pid, 'SIGKILL');
    if (agentctlPid !== undefined) signalPid(agentctlPid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('exit', cleanUp);
  try {
    const ready = await readReadyLine(child, START_TIMEOUT_MS).catch((err) => fail(`npm start: ${err.message}`));
    agentctlPid = Number.isSafeInteger(ready.agentctl?.pid) ? ready.agentctl.pid : undefined;
    console.error(`ready: ${ready.url}, agentctl pid ${agentctlPid}`);
    const status = spawnSync(node.bin, [join(root, 'packages/cli/bin/kandev.js'), 'status'], {
      env: { ...env, KANDEV_URL: ready.url, KANDEV_API_TOKEN_FILE: ready.apiTokenFile },
      stdio: 'inherit',
    });
    if (status.status !== 0) fail(`kandev status exited with ${status.status}`);
    signalPid(-child.pid, 'SIGINT');
    // npm itself ends by the signal (as in a shell: exit 130); what counts is that everything stops.
    const stopped = () => !signalPid(-child.pid, 0) && (agentctlPid === undefined || !signalPid(agentctlPid, 0));
    await waitFor(stopped, 'npm start and its agentctl to stop after Ctrl-C', { timeoutMs: STOP_TIMEOUT_MS }).catch(
      (err) => fail(err.message),
    );
    console.error(`Ctrl-C: npm start exited (${child.exitCode ?? child.signalCode}), its agentctl too`);
    agentctlPid = undefined; // gone: its pid may be reused
  } finally {
    process.off('exit', cleanUp);
    cleanUp();
  }
}

function runToEnd(label, command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) fail(`${label} exited with ${result.status ?? result.signal ?? result.error?.message}`);
}

await step('npm start', quickStart);
await step('npm run demo', () => runToEnd('npm run demo', 'npm', ['run', '--silent', 'demo']));
const workers = process.env.KANDEV_TEST_WORKERS ?? String(Math.max(2, availableParallelism() - 1));
await step('unit + service tests', () =>
  runToEnd('jest', node.bin, [
    join(root, 'node_modules/jest/bin/jest.js'),
    '--selectProjects',
    'unit',
    'service',
    `--maxWorkers=${workers}`,
  ]),
);
console.error(`\nNode ${node.version}: passed (${results.join(', ')})`);
