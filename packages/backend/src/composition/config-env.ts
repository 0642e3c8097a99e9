import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { CONTROL_TOKEN_MIN_LENGTH, HTTP_TIMEOUT_DEFAULTS } from '@kandev/protocol';
import { AUTH_FAILURE_DEFAULTS } from '../platform/auth-guards/auth-failure-limit';
import { LOG_LEVELS } from '../platform/logger/logger';
import { SecretKeyTextSchema } from '../platform/secrets/secret-key';
import { isPostgresUrl } from '../platform/store/driver/postgres-database';
import { GIT_TIMEOUT_DEFAULT_MS } from '../runtime/task-workspaces/workspace-layout';

// The backend's environment variables as one schema: each one's type, bounds and default
// (docs/configuration.md documents every one). config.ts reads them and checks how they fit together.

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const positiveMs = (fallback: number) => z.coerce.number().int().positive().max(3_600_000).default(fallback);
const optionalText = z.string().trim().min(1).optional();
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');

export const EnvSchema = z.object({
  KANDEV_HTTP_HOST: z.string().trim().min(1).default('127.0.0.1'),
  KANDEV_HTTP_PORT: port(7420),
  KANDEV_ALLOWED_HOSTS: z.string().default(''),
  KANDEV_ALLOWED_ORIGINS: z.string().default(''),
  KANDEV_DATA_DIR: z.string().trim().min(1).default('./data'),
  // PostgreSQL instead of the embedded SQLite file; empty means unset. Never echoed: it may hold a password.
  KANDEV_DATABASE_URL: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().refine(isPostgresUrl).optional(),
  ),
  KANDEV_GITLAB_HOSTS: z.string().default(''),
  KANDEV_GITLAB_INSECURE_HOSTS: z.string().default(''),
  KANDEV_AGENTCTL_HOST: z.string().trim().min(1).default('127.0.0.1'),
  KANDEV_AGENTCTL_GRPC_PORT: port(7421),
  KANDEV_AGENTCTL_MCP_PORT: port(7422),
  KANDEV_AGENTCTL_TOKEN: z.string().trim().min(CONTROL_TOKEN_MIN_LENGTH).optional(),
  KANDEV_AGENTCTL_BIN: optionalText,
  // Empty means unset: compose passes `${KANDEV_API_TOKEN:-}` through when .env does not set it.
  KANDEV_API_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().optional()),
  KANDEV_API_TOKEN_FILE: optionalText,
  KANDEV_SECRET_KEY: SecretKeyTextSchema.optional(),
  KANDEV_SECRET_KEY_FILE: optionalText,
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  KANDEV_SHUTDOWN_TIMEOUT_MS: positiveMs(10_000),
  KANDEV_AGENTCTL_TIMEOUT_MS: positiveMs(5_000),
  KANDEV_REFRESH_RETRY_BASE_MS: positiveMs(500),
  KANDEV_REFRESH_RETRY_MAX_ATTEMPTS: z.coerce.number().int().min(0).max(50).default(8),
  KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: z.coerce.number().int().positive().max(3_600_000).optional(),
  KANDEV_TOOL_CALL_HEARTBEAT_MS: positiveMs(5_000),
  KANDEV_QUESTION_TIMEOUT_MS: positiveMs(600_000),
  KANDEV_PERMISSION_TIMEOUT_MS: positiveMs(600_000),
  KANDEV_GITLAB_POLL_INTERVAL_MS: positiveMs(60_000),
  KANDEV_GITLAB_POLL_JITTER_MS: z.coerce.number().int().min(0).max(3_600_000).default(5_000),
  KANDEV_GITLAB_POLL_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  KANDEV_GITLAB_BACKOFF_BASE_MS: positiveMs(60_000),
  KANDEV_GITLAB_BACKOFF_MAX_MS: positiveMs(900_000),
  // GitHub REST root (GitHub Enterprise Server: https://host/api/v3); the PR poller sends tokens there.
  KANDEV_GITHUB_API_URL: z
    .string()
    .trim()
    .url()
    .refine((url) => /^https?:\/\/[^/?#@]+(\/[^?#]*)?$/i.test(url), 'an http(s) URL without credentials or query')
    .default('https://api.github.com'),
  KANDEV_GITHUB_POLL_INTERVAL_MS: positiveMs(60_000),
  KANDEV_HTTP_HEADERS_TIMEOUT_MS: positiveMs(HTTP_TIMEOUT_DEFAULTS.headersMs),
  KANDEV_HTTP_REQUEST_TIMEOUT_MS: positiveMs(HTTP_TIMEOUT_DEFAULTS.requestMs),
  KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveMs(HTTP_TIMEOUT_DEFAULTS.keepAliveMs),
  KANDEV_EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(7),
  KANDEV_EVENT_RETENTION_MAX_ROWS: z.coerce.number().int().min(1000).max(100_000_000).default(100_000),
  KANDEV_AUTH_FAILURE_LIMIT: z.coerce.number().int().min(1).max(10_000).default(AUTH_FAILURE_DEFAULTS.maxFailures),
  KANDEV_AUTH_FAILURE_WINDOW_MS: positiveMs(AUTH_FAILURE_DEFAULTS.windowMs),
  KANDEV_TRUSTED_PROXIES: z.string().default(''),
  KANDEV_SESSION_DETAIL_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(90),
  KANDEV_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(365),
  KANDEV_EVENT_MAX_STREAMS: z.coerce.number().int().min(1).max(10_000).default(64),
  // Task workspaces (docs/workspaces.md): an absolute directory; default <data dir>/workspaces.
  KANDEV_WORKSPACES_DIR: z.string().trim().refine(isAbsolute, 'must be an absolute path').optional(),
  KANDEV_WORKSPACE_CHECKOUT: flag(true),
  KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE: flag(true),
  KANDEV_WORKSPACE_GIT_TIMEOUT_MS: positiveMs(GIT_TIMEOUT_DEFAULT_MS),
  // Several replicas (docs/replicas.md): how long a lease runs, how often its holder renews it.
  KANDEV_REPLICA_LEASE_TTL_MS: positiveMs(10_000),
  KANDEV_REPLICA_LEASE_RENEW_MS: positiveMs(3_000),
});
