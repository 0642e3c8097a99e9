// The demo's own backend: the real daemon on a temp data dir and OS-chosen ports, which starts its own
// local agentctl (which runs the agents). Stopped with SIGTERM so it stops its agentctl and that stops
// the agents; every pid the demo saw is then checked, so nothing is left behind.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { isRunning, readReadyLine, signalPid, stopChild } from '../bench/bench-processes.mjs';
import { embeddedBackendEnv } from '../lib/embedded-backend-env.mjs';
export { ensureBuilt } from '../lib/workspace.mjs';

const STOP_GRACE_MS = 10_000;
const START_TIMEOUT_MS = 30_000;

export function isPidAlive(pid) {
  return signalPid(pid, 0);
}

/** The agentctl pid the backend recorded in its data dir (known even when the demo never saw a ready line). */
function recordedAgentctlPid(dataDir) {
  try {
    const pid = JSON.parse(readFileSync(join(dataDir, 'agentctl.json'), 'utf8')).pid;
    return Number.isSafeInteger(pid) ? pid : undefined;
  } catch {
    return undefined; // no record (not started, or removed by a clean stop)
  }
}

/**
 * One scope for the whole demo: `start()` runs the backend, `watchPid()` registers a pid that must be
 * gone at the end, `finish()` stops everything (once, however often it is called: the main flow and a
 * Ctrl-C share it) and resolves the pids that were still running and had to be killed.
 */
export function createEmbeddedBackend(root) {
  const cleanups = [];
  const watched = new Set();
  const leftovers = [];
  const children = new Set();
  let finishing;

  function finish() {
    finishing ??= (async () => {
      for (const cleanup of cleanups.splice(0).reverse()) {
        try {
          await cleanup();
        } catch (err) {
          console.error(`cleanup: ${err.message}`);
        }
      }
      // Everything is accounted for: the exit handler must not signal pids the system may reuse.
      watched.clear();
      children.clear();
      return leftovers;
    })();
    return finishing;
  }

  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      if (interrupted) return;
      interrupted = true;
      console.error(`demo: ${signal}, stopping everything it started`);
      setTimeout(() => process.exit(130), 3 * STOP_GRACE_MS).unref();
      void finish().finally(() => process.exit(130));
    });
  }
  // Last resort if the demo dies abruptly: no daemon or agent outlives it.
  process.on('exit', () => {
    for (const child of children) if (isRunning(child)) child.kill('SIGKILL');
    for (const pid of watched) signalPid(pid, 'SIGKILL');
  });

  async function start() {
    const dataDir = mkdtempSync(join(tmpdir(), 'kandev-demo-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawn(process.execPath, [join(root, 'packages/backend/dist/main.js')], {
      cwd: root,
      env: embeddedBackendEnv(dataDir),
      // Its own process group: a terminal's Ctrl-C reaches the demo only, which stops it in order.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const stderr = [];
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr.push(line);
      if (stderr.length > 40) stderr.shift();
    });
    // Registered before the ready line, so a failed start is still stopped. After the backend's graceful
    // stop, anything still running (its agentctl, an agent) is a leftover: killed, and reported.
    cleanups.push(async () => {
      const agentctlPid = recordedAgentctlPid(dataDir);
      if (agentctlPid !== undefined) watched.add(agentctlPid);
      await stopChild(child, STOP_GRACE_MS);
      for (const pid of watched) {
        if (isPidAlive(pid)) {
          leftovers.push(pid);
          signalPid(pid, 'SIGKILL');
        }
      }
    });
    const agentctlLog = () => {
      const file = join(dataDir, 'agentctl.log');
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '';
    };
    const logs = () =>
      `backend stderr (last lines):\n${stderr.join('\n')}\nagentctl.log (last lines):\n${agentctlLog()}`;
    const ready = await readReadyLine(child, START_TIMEOUT_MS).catch((err) => {
      throw new Error(`backend: ${err.message}\n${logs()}`, { cause: err });
    });
    if (Number.isSafeInteger(ready.agentctl?.pid)) watched.add(ready.agentctl.pid);
    return { url: ready.url, token: readFileSync(ready.apiTokenFile, 'utf8').trim(), logs };
  }

  return {
    start,
    /** A pid the demo saw (an agent): it must be gone once the demo finished. */
    watchPid: (pid) => {
      if (Number.isSafeInteger(pid) && pid > 0) watched.add(pid);
    },
    finish,
    /** True once a signal started the cleanup: the main flow's errors after that are expected. */
    interrupted: () => interrupted,
  };
}
