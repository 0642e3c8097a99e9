// Several backend replicas on one PostgreSQL database, sharing agentctls they reach through the
// remote executor (as a cluster runs them): each replica is a real backend process with its own data
// dir; they share the database, the operator token and the key that seals secrets at rest.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { AgentctlClient, type Database } from '@kandev/backend/testing';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
import { waitUntil } from './wait';
import {
  type AgentctlReady,
  type BackendReady,
  type Daemon,
  isRunning,
  killPid,
  startAgentctl,
  startDaemon,
  stopProcess,
  BACKEND_MAIN,
  TEST_CONTROL_TOKEN,
  tempDir,
} from './processes';

/** How long a lapsed Attach lease may take to be held again (the test TTL is seconds). */
const HOLDER_TIMEOUT_MS = 30_000;

export interface Replica {
  index: number;
  child: ChildProcess;
  ready: BackendReady;
  logs: () => string;
  api: BackendApi;
  dataDir: string;
}

export interface SharedAgentctl {
  /** The executor name sessions name to run on it. */
  executor: string;
  daemon: Daemon<AgentctlReady>;
}

export interface ReplicaCluster {
  databaseUrl: string;
  apiToken: string;
  replicas: Replica[];
  agentctls: SharedAgentctl[];
  /** The replicas still running. */
  live(): Replica[];
  /** Every replica's and agentctl's recent logs, labelled (for a failure message). */
  logs(): string;
  /** SIGKILL: no graceful stop, no lease released, no stream closed politely. */
  kill(replica: Replica): Promise<void>;
}

export interface ReplicaClusterOptions {
  databaseUrl: string;
  replicas: number;
  agentctls: number;
  /** Extra environment for every replica (poll intervals, lease timings). */
  env?: Record<string, string>;
}

function executorEnv(agentctls: SharedAgentctl[]): Record<string, string> {
  const [first, ...rest] = agentctls;
  if (first === undefined) throw new Error('a replica cluster needs at least one agentctl');
  const address = (a: SharedAgentctl) => `127.0.0.1:${a.daemon.ready.grpcPort}`;
  const mcpUrl = (a: SharedAgentctl) => `http://127.0.0.1:${a.daemon.ready.mcpPort}`;
  const profiles = Object.fromEntries(
    rest.map((a) => [
      a.executor,
      { kind: 'remote', address: address(a), mcp_url: mcpUrl(a), token: TEST_CONTROL_TOKEN, insecure: true },
    ]),
  );
  return {
    KANDEV_EXECUTORS: 'remote',
    KANDEV_REMOTE_AGENTCTL_ADDRESS: address(first),
    KANDEV_REMOTE_AGENTCTL_MCP_URL: mcpUrl(first),
    KANDEV_REMOTE_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN,
    KANDEV_REMOTE_AGENTCTL_INSECURE: 'true',
    KANDEV_EXECUTOR_PROFILES: JSON.stringify(profiles),
  };
}

/**
 * Starts the agentctls, then the replicas one after another (the first applies the migrations), and
 * waits until each is ready. The
 * first agentctl is the executor `remote`; the others are named `agentctl-2`, `agentctl-3`, ….
 */
export async function startReplicaCluster(cleanup: Cleanup, options: ReplicaClusterOptions): Promise<ReplicaCluster> {
  const agentctls: SharedAgentctl[] = [];
  for (let i = 0; i < options.agentctls; i += 1) {
    const daemon = await startAgentctl(cleanup);
    agentctls.push({ executor: i === 0 ? 'remote' : `agentctl-${i + 1}`, daemon });
  }
  const apiToken = randomBytes(24).toString('hex');
  const shared = {
    KANDEV_DATABASE_URL: options.databaseUrl,
    KANDEV_API_TOKEN: apiToken,
    KANDEV_SECRET_KEY: randomBytes(32).toString('hex'),
    KANDEV_WORKSPACE_CHECKOUT: 'false',
    KANDEV_HTTP_PORT: '0',
    ...executorEnv(agentctls),
    ...options.env,
  };
  const replicas: Replica[] = [];
  for (let index = 0; index < options.replicas; index += 1) {
    const dataDir = tempDir(cleanup, `kandev-replica-${index}-`);
    const daemon = await startDaemon<BackendReady>(cleanup, BACKEND_MAIN, { ...shared, KANDEV_DATA_DIR: dataDir });
    // A graceful stop first (runs before startDaemon's own step: cleanup is a stack).
    cleanup.defer(() => stopProcess(daemon.child, { graceMs: 10_000 }));
    replicas.push({ index, ...daemon, dataDir, api: new BackendApi(daemon.ready.url, apiToken) });
  }
  // Ready: the database answers and every agentctl is reachable from every replica (GET /readyz).
  for (const replica of replicas) {
    await waitUntil(async () => (await fetch(`${replica.ready.url}/readyz`)).status === 200, {
      timeoutMs: 30_000,
      logs: replica.logs,
      what: `replica ${replica.index} ready`,
    });
  }
  return {
    databaseUrl: options.databaseUrl,
    apiToken,
    replicas,
    agentctls,
    live: () => replicas.filter((replica) => isRunning(replica.child)),
    logs: () =>
      [
        ...replicas.map((r) => `--- replica ${r.index}\n${r.logs()}`),
        ...agentctls.map((a) => `--- agentctl ${a.executor}\n${a.daemon.logs()}`),
      ].join('\n'),
    kill: async (replica) => {
      const exited = new Promise((resolve) => replica.child.once('exit', resolve));
      killPid(replica.child.pid ?? -1);
      await exited;
    },
  };
}

/** A small deterministic generator (mulberry32), so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** fetch's own failure (connection refused or closed); not `instanceof TypeError`: another realm under jest. */
export function isNetworkError(error: unknown): boolean {
  const { name, message } = (typeof error === 'object' && error !== null ? error : {}) as Partial<Error>;
  return name === 'TypeError' && message === 'fetch failed';
}

/** Registers the repository, or finds it: a second registration is 409 naming the existing id. */
export async function registered(api: BackendApi, workspaceId: string, remoteUrl: string): Promise<string> {
  const response = await api.request<{ id?: string; error?: { details?: { existing_id?: string } } }>(
    'POST',
    '/api/repositories',
    { workspace_id: workspaceId, remote_url: remoteUrl },
  );
  const id = response.status === 201 ? response.body.id : response.body.error?.details?.existing_id;
  if (response.status !== 201 && response.status !== 409) throw new Error(`register ${remoteUrl}: ${response.status}`);
  if (id === undefined) throw new Error(`register ${remoteUrl}: no id in ${JSON.stringify(response.body)}`);
  return id;
}

export async function duplicates(db: Database, table: string, columns: string[]): Promise<unknown[]> {
  return db(table).select(columns).count({ n: '*' }).groupBy(columns).havingRaw('count(*) > 1');
}

/** The prompt ids agentctl ran a turn for in the session, oldest first (its GetSession ledger). */
export async function turnsOf(cluster: ReplicaCluster, executor: string, sessionId: string): Promise<string[]> {
  const agentctl = cluster.agentctls.find((a) => a.executor === executor);
  if (agentctl === undefined) throw new Error(`no agentctl ${executor}`);
  const endpoint = {
    grpcAddress: `127.0.0.1:${agentctl.daemon.ready.grpcPort}`,
    controlToken: TEST_CONTROL_TOKEN,
    mcpBaseUrl: 'http://unused',
  };
  const client = new AgentctlClient(endpoint, 5_000);
  try {
    const state = await client.getSession(sessionId);
    return state.agent.turns.map((turn) => turn.promptId);
  } finally {
    client.close();
  }
}

/**
 * The replica holding the most agentctls' Attach leases (GET /api/replicas), so the kill forces a
 * takeover. Under load a lease may lapse and be taken again (short test TTLs): waits for a holder.
 */
export async function streamHolder(cluster: ReplicaCluster): Promise<Replica> {
  return waitUntil(
    async () => {
      const views = await Promise.all(
        cluster.live().map(async (replica) => {
          const { body } = await replica.api.request<{ replica_id: string; attach: { owner: string }[] }>(
            'GET',
            '/api/replicas',
          );
          return { replica, held: body.attach.filter((lease) => lease.owner === body.replica_id).length };
        }),
      );
      const [top] = views.sort((a, b) => b.held - a.held);
      return top === undefined || top.held === 0 ? undefined : top.replica;
    },
    { timeoutMs: HOLDER_TIMEOUT_MS, logs: () => cluster.logs(), what: 'a replica holding an Attach lease' },
  );
}

export function shuffle<T>(random: () => number, items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
