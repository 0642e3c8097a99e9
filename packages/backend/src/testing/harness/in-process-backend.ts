// The backend's services in process, wired by the production composition root (createBackend) over a
// fresh database (a SQLite file, or PostgreSQL in the -pg projects: test-database.ts), with fake ports:
// the fake agentctl, a test clock, GitLab as the test asks. Harnesses build on this; they replace
// ports, never the wiring.
import type {
  AgentctlPort,
  BackendConfig,
  BackendPorts,
  GithubPort,
  GitlabPort,
} from '../../composition/backend-ports';
import { type Backend, createBackend } from '../../composition/create-backend';
import { gitlabClientFor } from '../../integrations/gitlab/gitlab-credentials';
import { createLogger } from '../../platform/logger/logger';
import type { Database } from '../../platform/store/database';
import { migrateToLatest } from '../../platform/store/database';
import type { SecretBox } from '../../platform/secrets/secret-box';
import type { Cleanup } from '../cleanup';
import { fakeAgentctlPort } from './fake-agentctl-port';
import { tempDir } from './temp-dir';
import { openTestDatabase } from '../database/test-database';
import { TEST_SECRETS } from './test-secrets';

/** The configuration defaults, with quick refresh retries. */
export const TEST_CONFIG: BackendConfig = {
  gitlabHosts: [],
  gitlabInsecureHosts: [],
  questionTimeoutMs: 600_000,
  refreshRetry: { baseMs: 1, maxDelayMs: 4, maxAttempts: 3 },
  gitlabPoll: { intervalMs: 60_000, jitterMs: 5_000, concurrency: 4, backoffBaseMs: 60_000, backoffMaxMs: 900_000 },
  toolCallHeartbeatMs: 5_000,
  agentctl: { callTimeoutMs: 5_000 },
};

/** GitLab reached for real (a test server's base URL on the credential); tokens are stored unverified. */
export const UNVERIFIED_GITLAB: GitlabPort = { clientFor: (credential) => gitlabClientFor(credential) };

export interface InProcessBackendOptions {
  /** An open, migrated database (a second backend over it); default: a fresh one in `dataDir`. */
  db?: Database;
  /** Reuse a data dir (a restarted backend); default: a fresh one. */
  dataDir?: string;
  config?: Partial<BackendConfig>;
  clock?: () => Date;
  /** Default: no agentctl is up at all. */
  agentctl?: AgentctlPort;
  gitlab?: GitlabPort;
  /** Default: GitHub at api.github.com, tokens stored unverified. */
  github?: GithubPort;
  random?: BackendPorts['random'];
  startTimer?: BackendPorts['startTimer'];
  gate?: BackendPorts['gate'];
  /** Default: the test process's one key. */
  secrets?: SecretBox;
  /** Wake-ups across replicas sharing the database; default by database (in process on SQLite). */
  signals?: BackendPorts['signals'];
}

export async function createInProcessBackend(cleanup: Cleanup, options: InProcessBackendOptions = {}) {
  let { db, dataDir } = options;
  if (db === undefined) {
    dataDir ??= tempDir(cleanup);
    const fresh = await openTestDatabase(dataDir, cleanup);
    cleanup.defer(() => fresh.destroy());
    await migrateToLatest(fresh);
    db = fresh;
  }
  const logger = createLogger('silent');
  const backend = createBackend(
    { ...TEST_CONFIG, ...options.config },
    {
      logger,
      db,
      clock: options.clock ?? (() => new Date()),
      agentctl: options.agentctl ?? fakeAgentctlPort(),
      gitlab: options.gitlab ?? UNVERIFIED_GITLAB,
      github: options.github,
      random: options.random,
      startTimer: options.startTimer,
      gate: options.gate,
      secrets: options.secrets ?? TEST_SECRETS,
      signals: options.signals,
    },
  );
  cleanup.defer(() => backend.stop());
  // As start() does first: on PostgreSQL this replica's presence is visible before it claims anything,
  // else another replica would take its fresh leases as a gone owner's (lease-store ownerGone).
  await backend.replicas.ready();
  return { db, dataDir, logger, backend };
}

export type InProcessBackend = Awaited<ReturnType<typeof createInProcessBackend>>;

/** Records every kick of the backend's drainer (the kick still runs), in order. */
export function recordKicks(backend: Backend): string[] {
  const kicks: string[] = [];
  const drainer = backend.turns.drainer;
  const kick = drainer.kick.bind(drainer);
  drainer.kick = (sessionId: string) => {
    kicks.push(sessionId);
    return kick(sessionId);
  };
  return kicks;
}
