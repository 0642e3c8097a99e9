import type { LeaseTiming } from '../platform/cluster/attach-lease';
import type { ReplicaPresence, ReplicaSignals } from '../platform/cluster/replica-signals';
import type { EventLogConfig } from '../platform/events/event-log-config';
import type { Knex } from 'knex';
import type { AgentctlConnector } from '../runtime/agentctl/agentctl-client';
import type { AgentctlEvents } from '../runtime/agentctl/executor';
import type { ExecutorRegistry } from '../runtime/executors/executor-registry';
import type { GithubClient } from '../integrations/github/github-client';
import type { GitlabClient } from '../integrations/gitlab/gitlab-client';
import type { Logger } from '../platform/logger/logger';
import type { BackendMetrics } from '../platform/metrics/backend-metrics';
import type { MrPollPolicy } from '../integrations/gitlab/mr-poller';
import type { DrainGate } from '../runtime/prompt-queue/drain-gate';
import type { CredentialVerifier } from '../catalogue/credentials/workspace-credential-service';
import type { StartTimer } from '../runtime/questions/question-service';
import type { BackoffPolicy } from '../platform/retry/retry-backoff';
import type { SecretBox } from '../platform/secrets/secret-box';
import type { TaskWorkspacesConfig } from '../runtime/task-workspaces/task-workspaces';

/** What the composition root reads of the configuration (a loaded Config is one). */
export interface BackendConfig {
  /** Self-hosted GitLab hosts (repository identity; https base URLs of GitLab credentials). */
  gitlabHosts: readonly string[];
  /** GitLab hosts a credential's base URL may also reach over plain http. */
  gitlabInsecureHosts: readonly string[];
  questionTimeoutMs: number;
  /** How long a permission request (policy ask) waits (KANDEV_PERMISSION_TIMEOUT_MS; default 10 min). */
  permissionTimeoutMs?: number;
  /** Refresh retries, and re-sends of a prompt whose Prompt call failed ambiguously. */
  refreshRetry: BackoffPolicy;
  gitlabPoll: MrPollPolicy;
  /** The GitHub PR poller; default: the GitLab poll policy. */
  githubPoll?: MrPollPolicy;
  toolCallHeartbeatMs: number;
  /** Each agentctl call's deadline (orphan sweeps follow an ambiguous launch at multiples of it). */
  agentctl: { callTimeoutMs: number };
  /** An operator token from the environment (accepted besides the stored ones); none in most tests. */
  apiToken?: { token: string; source: string };
  /** The event log's retention and the live streams' limits; default EVENT_LOG_DEFAULTS. */
  events?: EventLogConfig;
  /** Task workspaces (the agent's cwd); a loaded Config always has them, a test harness may leave them out. */
  workspaces?: TaskWorkspacesConfig;
  /**
   * Several replicas (docs/replicas.md): lease TTL and renewal; `shared` defaults to "the database is
   * PostgreSQL" (tests may set it to run replicas on one SQLite file). Default LEASE_TIMING_DEFAULTS.
   */
  replicas?: LeaseTiming & { shared?: boolean };
}

/** The agentctls: where they run, how they are called, and what their executors announce. */
export interface AgentctlPort {
  /** Every configured executor, by name (tests: one whose agentctl is the fake). */
  executors: ExecutorRegistry;
  /** A client per agentctl endpoint (gRPC; tests: the fake agentctl). */
  clients: AgentctlConnector;
  /** The executors' up/down/lost announcements (the hub they were built with). */
  events: { subscribe(listener: Partial<AgentctlEvents>): void };
}

/** GitLab as the MR lifecycle and the credential routes reach it. */
export interface GitlabPort {
  /** A client for a workspace's stored credential: its own base URL, never an ambient one. */
  clientFor(credential: { token: string; baseUrl: string | null }): GitlabClient;
  /** Checks a token before it is stored (GET /user); absent: it is stored unverified. */
  verify?: CredentialVerifier;
}

/** GitHub as the PR lifecycle and the credential routes reach it (the API URL is the port's). */
export interface GithubPort {
  /** A client for a workspace's stored token. */
  clientFor(credential: { token: string }): GithubClient;
  /** Checks a token before it is stored (GET /user); absent: it is stored unverified. */
  verify?: CredentialVerifier;
}

/** Everything outside the backend's services that they use; tests replace these, never the wiring. */
export interface BackendPorts {
  logger: Logger;
  /** A migrated database. */
  db: Knex;
  clock: () => Date;
  agentctl: AgentctlPort;
  gitlab: GitlabPort;
  /** Default: GitHub reached at https://api.github.com, tokens stored unverified. */
  github?: GithubPort;
  /** Seals provider tokens and agent-profile env values at rest (main.ts: openSecretsAtRest). */
  secrets: SecretBox;
  /** Jitter of the backoffs (reconciler, drainer, MR and PR pollers); default Math.random. */
  random?: () => number;
  /** The operator questions' timeout timer; default a real one. */
  startTimer?: StartTimer;
  /** Holds a session's queue; default the parent-question gate. */
  gate?: DrainGate;
  /** The backend's metrics (its own Registry); default a fresh one per backend. */
  metrics?: BackendMetrics;
  /** This process among the replicas; default a fresh newReplicaId(). */
  replicaId?: string;
  /**
   * On a database replicas share: the id naming this backend's own local agentctl (its data dir's
   * backend id), which its endpoints and sessions carry. Undefined: every agentctl is reached by all.
   */
  localHome?: string;
  /**
   * Wake-ups across replicas sharing the database; default by database (composition/backend-replicas.ts).
   * Unused by a backend alone on its database: its signals stay in process.
   */
  signals?: ReplicaSignals & ReplicaPresence;
}
