import { readFileSync } from 'node:fs';
import {
  AppError,
  CONTROL_TOKEN_MIN_LENGTH,
  HTTP_TIMEOUT_DEFAULTS,
  HTTP_TIMEOUT_VARIABLES,
  httpTimeoutsConsistent,
} from '@kandev/protocol';
import { z } from 'zod';
import { pickAgentBaseEnv } from './agents/agent-env';
import { LOG_LEVELS } from './logger';

// The only module under src/ that reads the environment. Errors name variables, never their values.

const portSchema = (fallback: number) =>
  z
    .string()
    .regex(/^\d{1,5}$/, 'must be a port number (0 = any free port)')
    .transform(Number)
    .pipe(z.number().max(65535, 'must be at most 65535'))
    .default(fallback);

/** A Host header name: a DNS name, an IPv4 address or a bracketed IPv6 address, without a port. */
const HOST_NAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;

const allowedHostsSchema = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter((host) => host.length > 0),
  )
  .pipe(z.array(z.string().regex(HOST_NAME, 'must be a comma list of host names without ports')))
  .default([]);

/** `host:port` (IPv6 hosts bracketed); the listener binds exactly there. */
const listenAddressSchema = z
  .string()
  .regex(/^(?:[^\s:[\]]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$/, 'must be host:port (IPv6 hosts in brackets)')
  .transform((value) => {
    const colon = value.lastIndexOf(':');
    const host = value.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
    return { host, port: Number(value.slice(colon + 1)) };
  })
  .pipe(z.object({ host: z.string().min(1), port: z.number().max(65535, 'port must be at most 65535') }));

const millisecondsSchema = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a positive integer (milliseconds)')
    .transform(Number)
    .pipe(z.number().int().min(1).max(3_600_000, 'must be at most 3600000 (one hour)'))
    .default(fallback);

const countSchema = (fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().int().min(1).max(100_000, 'must be at most 100000'))
    .default(fallback);

const EnvSchema = z.object({
  KANDEV_AGENTCTL_TOKEN: z.string().optional(),
  KANDEV_AGENTCTL_TOKEN_FILE: z.string().optional(),
  KANDEV_AGENTCTL_HOST: z.string().min(1).default('127.0.0.1'),
  KANDEV_AGENTCTL_GRPC_PORT: portSchema(7421),
  KANDEV_AGENTCTL_MCP_PORT: portSchema(7422),
  KANDEV_AGENTCTL_ALLOWED_HOSTS: allowedHostsSchema,
  KANDEV_AGENTCTL_TLS_CERT: z.string().optional(),
  KANDEV_AGENTCTL_TLS_KEY: z.string().optional(),
  KANDEV_AGENTCTL_TLS_CLIENT_CA: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  KANDEV_SHUTDOWN_TIMEOUT_MS: z
    .string()
    .regex(/^\d+$/, 'must be a positive integer (milliseconds)')
    .transform(Number)
    .pipe(z.number().int().min(1))
    .default(10_000),
  KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: millisecondsSchema(30_000),
  // Longer than the backend's KANDEV_PERMISSION_TIMEOUT_MS (10 min): only a silent backend reaches it.
  KANDEV_AGENTCTL_PERMISSION_TIMEOUT_MS: millisecondsSchema(900_000),
  KANDEV_AGENTCTL_AGENT_START_TIMEOUT_MS: millisecondsSchema(60_000),
  // Agents connect to their MCP server while they set up a session; one that has not listed its tools by
  // then is reported (it has no kandev tools). Counted from the end of the handshake.
  KANDEV_AGENTCTL_MCP_CONNECT_TIMEOUT_MS: millisecondsSchema(15_000),
  // An agent that honours list_changed re-lists within milliseconds; after this, at the next turn
  // boundary, its ACP session is reopened so that it sees the changed tools.
  KANDEV_AGENTCTL_TOOLS_REFRESH_GRACE_MS: millisecondsSchema(2_000),
  KANDEV_AGENTCTL_AGENT_STOP_GRACE_MS: millisecondsSchema(3_000),
  KANDEV_AGENTCTL_METRICS_ADDR: listenAddressSchema.optional(),
  KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION: countSchema(16),
  KANDEV_MCP_MAX_CONNECTIONS: countSchema(1024),
  KANDEV_MCP_IDLE_TIMEOUT_MS: millisecondsSchema(600_000),
  KANDEV_HTTP_HEADERS_TIMEOUT_MS: millisecondsSchema(HTTP_TIMEOUT_DEFAULTS.headersMs),
  KANDEV_HTTP_REQUEST_TIMEOUT_MS: millisecondsSchema(HTTP_TIMEOUT_DEFAULTS.requestMs),
  KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: millisecondsSchema(HTTP_TIMEOUT_DEFAULTS.keepAliveMs),
});

export type ReadTextFile = (path: string) => string;

/** Blank variables count as unset (compose files often write `VAR=`). */
function withoutBlanks(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim().length > 0) out[key] = value;
  }
  return out;
}

function invalid(problems: string[]): AppError {
  return new AppError('invalid_argument', `invalid configuration: ${problems.join('; ')}`, { problems });
}

function resolveControlToken(token: string | undefined, file: string | undefined, readText: ReadTextFile): string {
  if (token !== undefined && file !== undefined) {
    throw invalid(['set only one of KANDEV_AGENTCTL_TOKEN and KANDEV_AGENTCTL_TOKEN_FILE']);
  }
  if (token === undefined && file === undefined) {
    throw invalid(['KANDEV_AGENTCTL_TOKEN or KANDEV_AGENTCTL_TOKEN_FILE is required']);
  }
  const variable = token !== undefined ? 'KANDEV_AGENTCTL_TOKEN' : 'KANDEV_AGENTCTL_TOKEN_FILE';
  let value: string;
  try {
    value = (token ?? readText(file ?? '')).trim();
  } catch {
    throw invalid([`KANDEV_AGENTCTL_TOKEN_FILE: cannot read the file`]);
  }
  if (value.length < CONTROL_TOKEN_MIN_LENGTH || /\s/.test(value)) {
    throw invalid([`${variable}: token must be at least ${CONTROL_TOKEN_MIN_LENGTH} characters without whitespace`]);
  }
  return value;
}

/** PEM contents agentctl serves gRPC TLS with; `clientCa` set: clients must present a certificate it signed. */
export interface ServerTls {
  cert: string;
  key: string;
  clientCa: string | undefined;
}

function readPem(variable: string, path: string, label: RegExp, readText: ReadTextFile): string {
  let text: string;
  try {
    text = readText(path);
  } catch {
    throw invalid([`${variable}: cannot read the file`]);
  }
  if (!label.test(text)) throw invalid([`${variable}: not a PEM file of the expected kind`]);
  return text;
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----/;
const PEM_KEY = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/;

/** Cert and key together turn TLS on; a client CA alone (or half a pair) is a mistake, never plaintext. */
function resolveTls(
  e: { KANDEV_AGENTCTL_TLS_CERT?: string; KANDEV_AGENTCTL_TLS_KEY?: string; KANDEV_AGENTCTL_TLS_CLIENT_CA?: string },
  readText: ReadTextFile,
): ServerTls | undefined {
  const cert = e.KANDEV_AGENTCTL_TLS_CERT;
  const key = e.KANDEV_AGENTCTL_TLS_KEY;
  const clientCa = e.KANDEV_AGENTCTL_TLS_CLIENT_CA;
  if (cert === undefined && key === undefined) {
    if (clientCa !== undefined) {
      throw invalid(['KANDEV_AGENTCTL_TLS_CLIENT_CA needs KANDEV_AGENTCTL_TLS_CERT and KANDEV_AGENTCTL_TLS_KEY']);
    }
    return undefined;
  }
  if (cert === undefined || key === undefined) {
    throw invalid(['set both KANDEV_AGENTCTL_TLS_CERT and KANDEV_AGENTCTL_TLS_KEY (PEM file paths), or neither']);
  }
  return {
    cert: readPem('KANDEV_AGENTCTL_TLS_CERT', cert, PEM_CERT, readText),
    key: readPem('KANDEV_AGENTCTL_TLS_KEY', key, PEM_KEY, readText),
    clientCa:
      clientCa === undefined ? undefined : readPem('KANDEV_AGENTCTL_TLS_CLIENT_CA', clientCa, PEM_CERT, readText),
  };
}

/** Validates the environment once at start-up; throws AppError('invalid_argument') naming every bad variable. */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  readText: ReadTextFile = (path) => readFileSync(path, 'utf8'),
) {
  const parsed = EnvSchema.safeParse(withoutBlanks(env));
  if (!parsed.success) {
    throw invalid(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const httpTimeouts = Object.freeze({
    headersMs: e.KANDEV_HTTP_HEADERS_TIMEOUT_MS,
    requestMs: e.KANDEV_HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: e.KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS,
  });
  if (!httpTimeoutsConsistent(httpTimeouts)) {
    throw invalid([`${HTTP_TIMEOUT_VARIABLES[0]}: must not be above ${HTTP_TIMEOUT_VARIABLES[1]}`]);
  }
  return Object.freeze({
    controlToken: resolveControlToken(e.KANDEV_AGENTCTL_TOKEN, e.KANDEV_AGENTCTL_TOKEN_FILE, readText),
    host: e.KANDEV_AGENTCTL_HOST,
    grpcPort: e.KANDEV_AGENTCTL_GRPC_PORT,
    mcpPort: e.KANDEV_AGENTCTL_MCP_PORT,
    allowedHosts: Object.freeze([...e.KANDEV_AGENTCTL_ALLOWED_HOSTS]),
    tls: resolveTls(e, readText),
    logLevel: e.LOG_LEVEL,
    shutdownTimeoutMs: e.KANDEV_SHUTDOWN_TIMEOUT_MS,
    toolCallTimeoutMs: e.KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS,
    /** A permission request forwarded under policy ask rejects after this long without a decision. */
    permissionTimeoutMs: e.KANDEV_AGENTCTL_PERMISSION_TIMEOUT_MS,
    agentStartTimeoutMs: e.KANDEV_AGENTCTL_AGENT_START_TIMEOUT_MS,
    mcpConnectTimeoutMs: e.KANDEV_AGENTCTL_MCP_CONNECT_TIMEOUT_MS,
    toolsRefreshGraceMs: e.KANDEV_AGENTCTL_TOOLS_REFRESH_GRACE_MS,
    agentStopGraceMs: e.KANDEV_AGENTCTL_AGENT_STOP_GRACE_MS,
    /** Where /metrics listens; undefined (the default): no metrics listener. */
    metricsAddress: e.KANDEV_AGENTCTL_METRICS_ADDR,
    mcpLimits: Object.freeze({
      perSession: e.KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION,
      total: e.KANDEV_MCP_MAX_CONNECTIONS,
      idleTimeoutMs: e.KANDEV_MCP_IDLE_TIMEOUT_MS,
    }),
    httpTimeouts,
    // Agents inherit only this allow-listed part of agentctl's environment (never a KANDEV_ variable).
    agentBaseEnv: Object.freeze(pickAgentBaseEnv(env)),
  });
}

export type Config = ReturnType<typeof loadConfig>;
