// The daemons of the live-update benchmark: one real backend (packages/backend/dist/main.js) with its own
// local agentctl on 127.0.0.1, every port chosen by the OS, on a fresh data dir, with its database on the
// embedded SQLite file or on a throwaway PostgreSQL cluster (scripts/pg-cluster.mjs --durable: fsync on,
// synchronous_commit off, as SQLite's WAL with synchronous=NORMAL: a commit does not wait for the
// disk's flush, a crash never corrupts the database).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { readReadyLine, signalPid } from './bench-processes.mjs';
import { Api } from './live-update-clients.mjs';
import { embeddedBackendEnv } from '../lib/embedded-backend-env.mjs';
import { startThrowawayPostgres } from '../lib/throwaway-postgres.mjs';

export { postgresInstalled } from '../lib/throwaway-postgres.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BACKEND_MAIN = join(root, 'packages/backend/dist/main.js');
const START_TIMEOUT_MS = 30_000;

/** A throwaway cluster, stopped and removed by the scope's cleanup; resolves its URL. */
export function startPostgres(scope) {
  const cluster = startThrowawayPostgres('bench', { durable: true });
  scope.cleanups.push(cluster.stop);
  return cluster.url;
}

/**
 * The PostgreSQL baseline: one `SELECT 1` over this process's own connection (the backend's driver,
 * `pg`), timed; what each statement of the backend costs at least. Resolves a function timing one.
 */
async function connectRoundTrip(scope, url) {
  const { Client } = createRequire(join(root, 'packages/backend/package.json'))('pg');
  const client = new Client({ connectionString: url, application_name: 'kandev-bench' });
  await client.connect();
  scope.cleanups.push(() => client.end());
  return async () => {
    const started = performance.now();
    await client.query('SELECT 1');
    return performance.now() - started;
  };
}

/** Lines of a log file (agentctl's, in the data dir) at warn level or above: pino levels 40+. */
export function warnLines(lines) {
  return lines.filter((line) => {
    try {
      return JSON.parse(line).level >= 40;
    } catch {
      return line.trim().length > 0;
    }
  });
}

/**
 * The backend on a fresh data dir (and database) with its own local agentctl; resolves once it printed
 * its ready line. `database`: 'sqlite' or 'postgres'. MCP connection limits are raised for the fan-out.
 * Given `dataDir` (and, on PostgreSQL, `databaseUrl`), it starts on those (the caller removes them);
 * `env` adds settings. `startedAt` (performance.now()) is when the process was spawned.
 */
export async function startBackend(scope, { database, sessions, dataDir: givenDir, databaseUrl: givenUrl, env = {} }) {
  const dataDir = givenDir ?? mkdtempSync(join(tmpdir(), 'kandev-bench-'));
  if (givenDir === undefined) scope.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = database === 'postgres' ? (givenUrl ?? startPostgres(scope)) : undefined;
  const databaseEnv = databaseUrl === undefined ? {} : { KANDEV_DATABASE_URL: databaseUrl };
  const startedAt = performance.now();
  const child = spawn(process.execPath, [BACKEND_MAIN], {
    cwd: root,
    env: embeddedBackendEnv(dataDir, {
      KANDEV_MCP_MAX_CONNECTIONS: String(Math.max(1024, 2 * sessions + 16)),
      ...databaseEnv,
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  scope.children.add(child);
  // Registered before the ready line: SIGTERM (not the exit handler's SIGKILL) makes it stop its agentctl.
  scope.cleanups.push(async () => {
    await scope.stopChild(child);
    for (const pid of scope.pids) signalPid(pid, 'SIGKILL');
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
  if (Number.isSafeInteger(ready.agentctl?.pid)) scope.pids.add(ready.agentctl.pid);
  const readyAt = performance.now();
  return {
    startMs: readyAt - startedAt,
    url: ready.url,
    api: new Api(ready.url, readFileSync(ready.apiTokenFile, 'utf8').trim()),
    logs,
    /** Warnings and errors so far: backend stderr lines and agentctl.log lines at warn or above. */
    warnings: () => ({ backend: stderr.total, agentctl: warnLines(agentctlLog()).length }),
    /** PostgreSQL only: times one database round trip (ms). */
    databaseRoundTrip: databaseUrl === undefined ? undefined : await connectRoundTrip(scope, databaseUrl),
  };
}
