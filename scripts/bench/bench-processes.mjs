// Process bookkeeping shared by the benchmarks: every child and stray pid a run starts is stopped on
// success, error, signal or watchdog, in reverse start order, and killed outright if the run exits
// abruptly, so no daemon is ever left behind.
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';

export function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

export function signalPid(pid, signal) {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

/** SIGTERM, then SIGKILL after graceMs; resolves once the child exited. */
export async function stopChild(child, graceMs) {
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Resolves a daemon's first `{"event":"ready"}` stdout line; rejects on exit or after timeoutMs. */
export function readReadyLine(child, timeoutMs) {
  const lines = createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ready line within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code, signal) => reject(new Error(`exited before ready (code ${code}, signal ${signal})`)));
    lines.on('line', (line) => {
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        return;
      }
      if (parsed?.event === 'ready') {
        clearTimeout(timer);
        resolve(parsed);
      }
    });
  });
}

/**
 * One run's processes. `cleanups` holds stop steps in start order; `runCleanups` empties it, so it is
 * safe to run twice (signal + finally). `children` and `pids` are killed on an abrupt exit.
 */
export function createProcessScope({ name, stopGraceMs, exitGraceMs }) {
  const children = new Set();
  const pids = new Set();
  const cleanups = [];
  let stopping = false;

  async function runCleanups() {
    // Reverse start order; keep going past a failing step so every process is stopped.
    for (const cleanup of cleanups.splice(0).reverse()) {
      try {
        await cleanup();
      } catch (err) {
        console.error(`cleanup: ${err.message}`);
      }
    }
  }

  /** Signal or watchdog: stop everything (bounded, as a hung daemon may never answer) and exit. */
  function stopAndExit(code, message) {
    if (stopping) return;
    stopping = true;
    console.error(`${name}: ${message}`);
    setTimeout(() => process.exit(code), exitGraceMs);
    void runCleanups().finally(() => process.exit(code));
  }

  // Last resort when the run ends abruptly (watchdog, uncaught error).
  process.on('exit', () => {
    for (const child of children) if (isRunning(child)) child.kill('SIGKILL');
    for (const pid of pids) signalPid(pid, 'SIGKILL');
  });

  return {
    children,
    pids,
    cleanups,
    runCleanups,
    stopAndExit,
    stopChild: (child) => stopChild(child, stopGraceMs),
    isStopping: () => stopping,
  };
}
