import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { HTTP_TIMEOUT_VARIABLES, type HttpTimeouts, httpTimeoutsConsistent } from '@kandev/protocol';
import { OPERATOR_TOKEN_MIN_LENGTH } from '../platform/auth/api-token-rules';
import { EVENT_LOG_DEFAULTS } from '../platform/events/event-log-config';
import { ExecutorConfigError, parseExecutorsConfig, type ReadTextFile } from '../runtime/executors/executor-config';
import { allowedHostsFor, canonicalHostName, canonicalOrigin } from '../platform/http/request-access';
import { SecretKey, decodeSecretKey } from '../platform/secrets/secret-key';
import { EnvSchema } from './config-env';

/** agentctl's own default for KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS (the backend passes it on when set). */
export const AGENTCTL_TOOL_CALL_TIMEOUT_DEFAULT_MS = 30_000;

/** No reconciler retry waits longer than this, whatever the base. */
export const REFRESH_RETRY_MAX_DELAY_MS = 30_000;

/**
 * Variables handed through to the agentctl child: the agent's base environment, and agentctl's own MCP
 * limits, HTTP timeouts and metrics address (agentctl validates them; no KANDEV_ variable reaches an agent).
 */
const PASSED_THROUGH = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION',
  'KANDEV_MCP_MAX_CONNECTIONS',
  'KANDEV_MCP_IDLE_TIMEOUT_MS',
  'KANDEV_AGENTCTL_METRICS_ADDR',
  'KANDEV_AGENTCTL_AGENT_START_TIMEOUT_MS',
  'KANDEV_AGENTCTL_MCP_CONNECT_TIMEOUT_MS',
  'KANDEV_AGENTCTL_TOOLS_REFRESH_GRACE_MS',
  ...HTTP_TIMEOUT_VARIABLES,
] as const;

export type Env = Readonly<Record<string, string | undefined>>;

/**
 * What git (task workspace checkouts) starts from: finding itself, a HOME for its own config, an ssh
 * agent for ssh remotes, proxies. No GIT_* variable of the backend's reaches it.
 */
const GIT_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'SSH_AUTH_SOCK',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
] as const;

function picked(env: Env, names: readonly string[]): Readonly<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return Object.freeze(out);
}

/** `a.example, B.example,,` -> ['a.example', 'b.example']. */
export function parseHostList(value: string): string[] {
  const hosts = value
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host.length > 0);
  return [...new Set(hosts)];
}

function passedThrough(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PASSED_THROUGH) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

const TOO_SHORT = `an operator API token needs at least ${OPERATOR_TOKEN_MIN_LENGTH} characters`;

/** The operator token given by KANDEV_API_TOKEN or KANDEV_API_TOKEN_FILE (not both); errors name the variable. */
function operatorApiToken(
  e: { KANDEV_API_TOKEN?: string; KANDEV_API_TOKEN_FILE?: string },
  readText: ReadTextFile,
): { token: string; source: string } | undefined {
  if (e.KANDEV_API_TOKEN !== undefined && e.KANDEV_API_TOKEN_FILE !== undefined) {
    throw new ConfigError(['KANDEV_API_TOKEN', 'KANDEV_API_TOKEN_FILE']);
  }
  if (e.KANDEV_API_TOKEN !== undefined) {
    if (e.KANDEV_API_TOKEN.length < OPERATOR_TOKEN_MIN_LENGTH) throw new ConfigError(['KANDEV_API_TOKEN'], TOO_SHORT);
    return { token: e.KANDEV_API_TOKEN, source: 'KANDEV_API_TOKEN' };
  }
  if (e.KANDEV_API_TOKEN_FILE === undefined) return undefined;
  let token: string;
  try {
    token = readText(e.KANDEV_API_TOKEN_FILE).trim();
  } catch {
    throw new ConfigError(['KANDEV_API_TOKEN_FILE']);
  }
  if (token.length < OPERATOR_TOKEN_MIN_LENGTH) throw new ConfigError(['KANDEV_API_TOKEN_FILE'], TOO_SHORT);
  return { token, source: `${e.KANDEV_API_TOKEN_FILE} (KANDEV_API_TOKEN_FILE)` };
}

/**
 * The key sealing secrets at rest, from KANDEV_SECRET_KEY or KANDEV_SECRET_KEY_FILE (not both);
 * undefined: the data dir's own secret.key (composition/secrets-at-rest.ts).
 */
function configuredSecretKey(
  e: { KANDEV_SECRET_KEY?: Buffer; KANDEV_SECRET_KEY_FILE?: string },
  readText: ReadTextFile,
): SecretKey | undefined {
  if (e.KANDEV_SECRET_KEY !== undefined && e.KANDEV_SECRET_KEY_FILE !== undefined) {
    throw new ConfigError(['KANDEV_SECRET_KEY', 'KANDEV_SECRET_KEY_FILE']);
  }
  if (e.KANDEV_SECRET_KEY !== undefined) return new SecretKey(e.KANDEV_SECRET_KEY, 'KANDEV_SECRET_KEY');
  if (e.KANDEV_SECRET_KEY_FILE === undefined) return undefined;
  let bytes: Buffer | undefined;
  try {
    bytes = decodeSecretKey(readText(e.KANDEV_SECRET_KEY_FILE));
  } catch {
    bytes = undefined;
  }
  if (bytes === undefined) throw new ConfigError(['KANDEV_SECRET_KEY_FILE']);
  return new SecretKey(bytes, `${e.KANDEV_SECRET_KEY_FILE} (KANDEV_SECRET_KEY_FILE)`);
}

/** Thrown for bad configuration; names the variables, never their values. */
export class ConfigError extends Error {
  /** `why`: what the variables must be, when one rule explains it (never their values). */
  constructor(
    readonly variables: string[],
    why?: string,
  ) {
    super(`invalid configuration: ${variables.join(', ')}${why === undefined ? '' : ` (${why})`}`);
    this.name = 'ConfigError';
  }
}

/** Each comma-separated entry in canonical form, or undefined when any entry is not one. */
function parseCanonicalList(value: string, canonical: (entry: string) => string | undefined): string[] | undefined {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map(canonical);
  return entries.every((entry) => entry !== undefined) ? [...new Set(entries)] : undefined;
}

/** Who may address the REST API: Host names and extra Origins (see platform/http/request-access.ts). */
function parseHttpAccess(e: {
  KANDEV_HTTP_HOST: string;
  KANDEV_ALLOWED_HOSTS: string;
  KANDEV_ALLOWED_ORIGINS: string;
}) {
  const extraHosts = parseCanonicalList(e.KANDEV_ALLOWED_HOSTS, canonicalHostName);
  const allowedOrigins = parseCanonicalList(e.KANDEV_ALLOWED_ORIGINS, canonicalOrigin);
  const bad = [
    ...(extraHosts === undefined ? ['KANDEV_ALLOWED_HOSTS'] : []),
    ...(allowedOrigins === undefined ? ['KANDEV_ALLOWED_ORIGINS'] : []),
  ];
  if (extraHosts === undefined || allowedOrigins === undefined) throw new ConfigError(bad);
  return {
    allowedHosts: Object.freeze(allowedHostsFor(e.KANDEV_HTTP_HOST, extraHosts)),
    allowedOrigins: Object.freeze(allowedOrigins),
  };
}

/** KANDEV_TRUSTED_PROXIES: exact IP addresses, comma-separated (a name or a range is refused). */
function trustedProxies(value: string): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.some((entry) => isIP(entry) === 0)) {
    throw new ConfigError(['KANDEV_TRUSTED_PROXIES'], 'a comma-separated list of IP addresses');
  }
  return entries;
}

/** A blank variable counts as unset, so it takes its default. */
function withoutBlanks(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''));
}

/**
 * The only reader of the environment: validates it and returns a frozen, typed config. `readText`
 * reads token files (KANDEV_REMOTE_AGENTCTL_TOKEN_FILE).
 */
export function loadConfig(env: Env = process.env, readText: ReadTextFile = (path) => readFileSync(path, 'utf8')) {
  const parsed = EnvSchema.safeParse(withoutBlanks(env));
  if (!parsed.success) {
    throw new ConfigError([...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].sort());
  }
  const e = parsed.data;
  // Heartbeats must come faster than agentctl's inactivity timeout, or every long call would time out.
  if (
    e.KANDEV_TOOL_CALL_HEARTBEAT_MS >= (e.KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS ?? AGENTCTL_TOOL_CALL_TIMEOUT_DEFAULT_MS)
  ) {
    throw new ConfigError(['KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS', 'KANDEV_TOOL_CALL_HEARTBEAT_MS']);
  }
  // A holder must renew well before its lease runs out, or a live replica's work would be taken over.
  if (e.KANDEV_REPLICA_LEASE_RENEW_MS * 2 > e.KANDEV_REPLICA_LEASE_TTL_MS) {
    throw new ConfigError(['KANDEV_REPLICA_LEASE_RENEW_MS', 'KANDEV_REPLICA_LEASE_TTL_MS']);
  }
  if (e.KANDEV_GITLAB_BACKOFF_MAX_MS < e.KANDEV_GITLAB_BACKOFF_BASE_MS) {
    throw new ConfigError(['KANDEV_GITLAB_BACKOFF_BASE_MS', 'KANDEV_GITLAB_BACKOFF_MAX_MS']);
  }
  const httpTimeouts: HttpTimeouts = Object.freeze({
    headersMs: e.KANDEV_HTTP_HEADERS_TIMEOUT_MS,
    requestMs: e.KANDEV_HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: e.KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
  if (!httpTimeoutsConsistent(httpTimeouts)) throw new ConfigError([...HTTP_TIMEOUT_VARIABLES.slice(0, 2)]);
  let executors;
  try {
    executors = parseExecutorsConfig(withoutBlanks(env), readText);
  } catch (error) {
    if (error instanceof ExecutorConfigError) throw new ConfigError(error.variables);
    throw error;
  }
  return Object.freeze({
    apiToken: operatorApiToken(e, readText),
    secretKey: configuredSecretKey(e, readText),
    executors: Object.freeze(executors),
    http: Object.freeze({
      host: e.KANDEV_HTTP_HOST,
      port: e.KANDEV_HTTP_PORT,
      timeouts: httpTimeouts,
      ...parseHttpAccess(e),
      authFailureLimit: Object.freeze({
        maxFailures: e.KANDEV_AUTH_FAILURE_LIMIT,
        windowMs: e.KANDEV_AUTH_FAILURE_WINDOW_MS,
        trustedProxies: trustedProxies(e.KANDEV_TRUSTED_PROXIES),
      }),
    }),
    dataDir: e.KANDEV_DATA_DIR,
    /** PostgreSQL's URL (password included: hand it to createDatabase only); undefined: SQLite. */
    databaseUrl: e.KANDEV_DATABASE_URL,
    /** Task workspaces (task-workspaces/, docs/workspaces.md). */
    workspaces: Object.freeze({
      dir: e.KANDEV_WORKSPACES_DIR ?? join(resolve(e.KANDEV_DATA_DIR), 'workspaces'),
      checkout: e.KANDEV_WORKSPACE_CHECKOUT,
      cleanupOnArchive: e.KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE,
      gitTimeoutMs: e.KANDEV_WORKSPACE_GIT_TIMEOUT_MS,
      gitEnv: picked(env, GIT_ENV),
    }),
    gitlabHosts: Object.freeze(parseHostList(e.KANDEV_GITLAB_HOSTS)),
    gitlabInsecureHosts: Object.freeze(parseHostList(e.KANDEV_GITLAB_INSECURE_HOSTS)),
    agentctl: Object.freeze({
      host: e.KANDEV_AGENTCTL_HOST,
      grpcPort: e.KANDEV_AGENTCTL_GRPC_PORT,
      mcpPort: e.KANDEV_AGENTCTL_MCP_PORT,
      token: e.KANDEV_AGENTCTL_TOKEN,
      bin: e.KANDEV_AGENTCTL_BIN,
      callTimeoutMs: e.KANDEV_AGENTCTL_TIMEOUT_MS,
      passEnv: Object.freeze(passedThrough(env)),
      toolCallTimeoutMs: e.KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS,
    }),
    toolCallHeartbeatMs: e.KANDEV_TOOL_CALL_HEARTBEAT_MS,
    questionTimeoutMs: e.KANDEV_QUESTION_TIMEOUT_MS,
    /** How long an agent's permission request (policy ask) waits for an answer before it is rejected. */
    permissionTimeoutMs: e.KANDEV_PERMISSION_TIMEOUT_MS,
    refreshRetry: Object.freeze({
      baseMs: e.KANDEV_REFRESH_RETRY_BASE_MS,
      maxAttempts: e.KANDEV_REFRESH_RETRY_MAX_ATTEMPTS,
      maxDelayMs: REFRESH_RETRY_MAX_DELAY_MS,
    }),
    /** The GitLab MR lifecycle poller (see integrations/gitlab/mr-poller.ts). */
    gitlabPoll: Object.freeze({
      intervalMs: e.KANDEV_GITLAB_POLL_INTERVAL_MS,
      jitterMs: e.KANDEV_GITLAB_POLL_JITTER_MS,
      concurrency: e.KANDEV_GITLAB_POLL_CONCURRENCY,
      backoffBaseMs: e.KANDEV_GITLAB_BACKOFF_BASE_MS,
      backoffMaxMs: e.KANDEV_GITLAB_BACKOFF_MAX_MS,
    }),
    githubApiUrl: e.KANDEV_GITHUB_API_URL,
    /** The GitHub PR lifecycle poller (integrations/github/pr-poller.ts): GitLab's jitter, concurrency and backoff. */
    githubPoll: Object.freeze({
      intervalMs: e.KANDEV_GITHUB_POLL_INTERVAL_MS,
      jitterMs: e.KANDEV_GITLAB_POLL_JITTER_MS,
      concurrency: e.KANDEV_GITLAB_POLL_CONCURRENCY,
      backoffBaseMs: e.KANDEV_GITLAB_BACKOFF_BASE_MS,
      backoffMaxMs: e.KANDEV_GITLAB_BACKOFF_MAX_MS,
    }),
    /** The durable event log behind GET /api/events (docs/events.md). */
    events: Object.freeze({
      ...EVENT_LOG_DEFAULTS,
      retention: Object.freeze({
        maxAgeMs: e.KANDEV_EVENT_RETENTION_DAYS * 24 * 3_600_000,
        maxRows: e.KANDEV_EVENT_RETENTION_MAX_ROWS,
      }),
      sessionDetailMaxAgeMs: e.KANDEV_SESSION_DETAIL_RETENTION_DAYS * 24 * 3_600_000,
      auditMaxAgeMs: e.KANDEV_AUDIT_RETENTION_DAYS * 24 * 3_600_000,
      maxStreams: e.KANDEV_EVENT_MAX_STREAMS,
    }),
    /** Leases of several replicas on one database (cluster/, docs/replicas.md). */
    replicas: Object.freeze({ ttlMs: e.KANDEV_REPLICA_LEASE_TTL_MS, renewMs: e.KANDEV_REPLICA_LEASE_RENEW_MS }),
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.KANDEV_SHUTDOWN_TIMEOUT_MS,
  });
}

export type Config = ReturnType<typeof loadConfig>;
