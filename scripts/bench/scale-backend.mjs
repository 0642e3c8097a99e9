// The scale benchmark's backend part at one size: a real backend (SQLite, its own local agentctl) with N
// live MCP-only sessions of one task, each with one connection on its notification stream (plain
// node:http, in this process, so arrivals and REST share one clock):
//  - fan-out: --rounds changes, each of which every connection must get exactly once (live-update-runs);
//  - restart: the backend is killed (its agentctl, detached, keeps serving the connections) and started
//    again on the same data dir; timed from the spawn until it is ready (the boot reconcile runs before
//    it serves) and until the repair after boot reported every session. Then nothing may be lost or
//    duplicated: every connection still open and answering tools/list, agentctl listing each session
//    exactly once, every session still live in the backend.
// A warning or an error in either backend's log fails the run (a push refused at scale was one).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { readReadyLine, signalPid } from './bench-processes.mjs';
import { Api, within } from './live-update-clients.mjs';
import { warnLines } from './live-update-backend.mjs';
import { connectAll, fanOut } from './live-update-runs.mjs';
import { inBatches } from './tools-list-clients.mjs';
import { embeddedBackendEnv } from '../lib/embedded-backend-env.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BACKEND_MAIN = join(root, 'packages/backend/dist/main.js');
const START_TIMEOUT_MS = 120_000;
const REPAIRED_TIMEOUT_MS = 120_000;
const LAUNCH_CONCURRENCY = 8;

const cjs = createRequire(import.meta.url);
const grpc = cjs('@grpc/grpc-js');
const { controlTokenMetadata, loadAgentctlProto } = cjs('@kandev/protocol');

/** The session ids agentctl holds (gRPC ListSessions, every page), as the backend would ask. */
async function listSessions(grpcAddress, controlToken) {
  const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
  const client = new AgentCtl(grpcAddress, grpc.credentials.createInsecure(), {
    'grpc.max_receive_message_length': -1,
  });
  try {
    const response = await new Promise((resolve, reject) =>
      client.ListSessions({}, controlTokenMetadata(controlToken), { deadline: Date.now() + 60_000 }, (err, res) =>
        err ? reject(err) : resolve(res),
      ),
    );
    return response.sessions.map((session) => session.config.session_id);
  } finally {
    client.close();
  }
}

/**
 * The backend on `dataDir`; resolves once it printed its ready line. At LOG_LEVEL=info (a restart;
 * the agentctl it adopts keeps the level it started with), `repaired` resolves when the repair after
 * boot logged its summary: the last step of a restart.
 */
async function startBackend(scope, dataDir, sessions, logLevel) {
  const child = spawn(process.execPath, [BACKEND_MAIN], {
    cwd: root,
    env: embeddedBackendEnv(dataDir, {
      KANDEV_MCP_MAX_CONNECTIONS: String(2 * sessions + 16),
      KANDEV_WORKSPACE_CHECKOUT: 'false',
      LOG_LEVEL: logLevel,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = performance.now();
  scope.children.add(child);
  const tail = [];
  const warned = [];
  const keep = (line) => {
    tail.push(line);
    if (tail.length > 40) tail.shift();
    if (warnLines([line]).length > 0 && warned.length < 5) warned.push(line);
  };
  let onRepaired;
  const repaired = new Promise((resolve) => (onRepaired = resolve));
  // The log (stderr): the repair's summary is the last step of a restart.
  createInterface({ input: child.stderr }).on('line', (line) => {
    keep(line);
    if (line.includes('"sessions repaired"')) onRepaired({ at: performance.now(), line: JSON.parse(line) });
  });
  const agentctlLog = () => {
    const file = join(dataDir, 'agentctl.log');
    return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-30).join('\n') : '';
  };
  const logs = () => `backend output (last lines):\n${tail.join('\n')}\nagentctl.log (last lines):\n${agentctlLog()}`;
  const ready = await readReadyLine(child, START_TIMEOUT_MS).catch((err) => {
    throw new Error(`backend: ${err.message}\n${logs()}`, { cause: err });
  });
  const readyAt = performance.now();
  scope.pids.add(ready.agentctl.pid);
  const api = new Api(ready.url, readFileSync(ready.apiTokenFile, 'utf8').trim());
  /** Fails when the backend logged a warning or an error: at scale as at any size, none is expected. */
  const expectNoWarnings = (what) => {
    if (warned.length > 0) throw new Error(`${what}: the backend logged warnings, first:\n${warned.join('\n')}`);
  };
  return { child, ready, api, logs, started, readyAt, repaired, expectNoWarnings };
}

/** Launches `count` sessions of one task, a few at a time; every one must get the github set. */
async function launchMany(api, taskId, count) {
  const started = performance.now();
  const sessions = await inBatches(Array.from({ length: count }), LAUNCH_CONCURRENCY, async () => {
    const session = await api.create(`/api/tasks/${taskId}/sessions`, {});
    if (session.launch_config.providers.join() !== 'github') throw new Error('launched without the github set');
    return session;
  });
  return { sessions, ms: performance.now() - started };
}

/** Live sessions of the task the backend reports, all pages of GET /api/sessions. */
async function liveSessionIds(api, taskId) {
  const ids = [];
  let cursor;
  do {
    const query = `task_id=${taskId}&limit=200${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = await api.request('GET', `/api/sessions?${query}`);
    if (page.status !== 200) throw new Error(`GET /api/sessions -> ${page.status}: ${JSON.stringify(page.body)}`);
    for (const session of page.body.sessions) if (session.state === 'waiting_for_input') ids.push(session.id);
    cursor = page.body.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return ids;
}

/** Fails unless `ids` holds exactly the launched sessions, each once. */
function expectExactly(what, ids, launched) {
  const unique = new Set(ids);
  const missing = launched.filter((session) => !unique.has(session.session_id)).length;
  const duplicated = ids.length - unique.size;
  const extra = unique.size - (launched.length - missing);
  if (missing + duplicated + extra > 0) {
    throw new Error(`${what}: ${missing} sessions missing, ${duplicated} duplicated, ${extra} unknown`);
  }
}

/** One size: fan-out rounds, then a restart; resolves the figures, everything stopped. */
export async function measureBackend(scope, sessions, options) {
  const dataDir = mkdtempSync(join(tmpdir(), 'kandev-bench-scale-'));
  const clients = [];
  scope.cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  try {
    let backend = await startBackend(scope, dataDir, sessions, 'warn');
    scope.cleanups.push(() => scope.stopChild(backend.child));
    const workspace = (await backend.api.create('/api/workspaces', { name: 'bench' })).id;
    const github = await backend.api.create('/api/repositories', {
      workspace_id: workspace,
      remote_url: 'https://github.com/bench/api',
    });
    const ids = { workspace, github: github.id };
    const taskId = await backend.api.githubTask(workspace, github.id, 'scale');
    const launched = await launchMany(backend.api, taskId, sessions);
    await connectAll(backend, launched.sessions, clients, 0);
    scope.cleanups.push(() => Promise.allSettled(clients.map((client) => client.close())));
    const rounds = await fanOut(backend, ids, { taskId, clients }, options);
    backend.expectNoWarnings('fan-out');

    // Restart: SIGKILL leaves the detached agentctl (and every connection) up; the next backend adopts it.
    const agentctlPid = backend.ready.agentctl.pid;
    backend.child.kill('SIGKILL');
    await once(backend.child, 'exit');
    backend = await startBackend(scope, dataDir, sessions, 'info');
    scope.cleanups.push(async () => {
      await scope.stopChild(backend.child);
      signalPid(agentctlPid, 'SIGKILL');
    });
    if (backend.ready.agentctl.pid !== agentctlPid) throw new Error('the restarted backend did not adopt agentctl');
    const repaired = await within(backend.repaired, REPAIRED_TIMEOUT_MS, 'no repair after the restart', backend.logs);
    const restart = { readyMs: backend.readyAt - backend.started, repairedMs: repaired.at - backend.started };

    // Nothing lost or duplicated: agentctl holds each session once, the backend reports each live, every
    // connection still serves (a tools/list round trip on each, after the repair: a barrier).
    const state = JSON.parse(readFileSync(join(dataDir, 'agentctl.json'), 'utf8'));
    const held = await listSessions(state.grpcAddress, state.controlToken);
    expectExactly('agentctl after the restart', held, launched.sessions);
    expectExactly('backend after the restart', await liveSessionIds(backend.api, taskId), launched.sessions);
    const gitlab = await Promise.all(clients.map((client) => client.hasGitlabTools()));
    if (gitlab.some((listed) => listed !== gitlab[0]))
      throw new Error('connections list different tools after the restart');
    const counts = new Set(clients.map((client) => client.count()));
    if (counts.size !== 1) throw new Error('connections got different numbers of list_changed across the restart');
    backend.expectNoWarnings('restart');
    return { sessions, launchMs: launched.ms, rounds, restart, repairSummary: repaired.line };
  } finally {
    await scope.runCleanups();
  }
}
