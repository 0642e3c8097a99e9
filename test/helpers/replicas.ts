// Several backend replicas on one PostgreSQL database, sharing agentctls they reach through the
// remote executor (as a cluster runs them): each replica is a real backend process with its own data
// dir; they share the database, the operator token and the key that seals secrets at rest.
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
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
 * Starts the agentctls, then the replicas one after another (the first applies the migrations). The
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
