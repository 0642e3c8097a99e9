import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { type AgentctlTls, CONTROL_TOKEN_MIN_LENGTH } from '@kandev/protocol';
import { EXECUTOR_KINDS } from '../agentctl/executor';
import {
  ClientTlsSchema,
  clientTls,
  type DockerTls,
  DockerTlsSchema,
  dockerTls,
  TlsConfigError,
} from './executor-tls-config';
import { type KubernetesEntry, kubernetesEntry } from './kubernetes/kubernetes-config';

// Pure: the executor part of the backend's configuration (config.ts hands it the environment and a
// file reader). Errors name variables, never values.

export type ReadTextFile = (path: string) => string;

export const DEFAULT_DOCKER_IMAGE = 'kandev/agentctl:dev';

/** A name on session rows and in POST /api/tasks/:id/sessions {executor}. */
const NAME = /^[a-z][a-z0-9-]{0,31}$/;

export type ExecutorEntry =
  | { name: string; kind: 'local' }
  | {
      name: string;
      kind: 'docker';
      image: string;
      publishHost: string;
      network: string | undefined;
      startTimeoutMs: number;
      /** Undefined: plaintext gRPC to the containers (published on the publish host only). */
      tls: DockerTls | undefined;
    }
  | {
      name: string;
      kind: 'remote';
      grpcAddress: string;
      mcpBaseUrl: string;
      controlToken: string;
      /** Undefined only when the profile says `insecure: true` (the executor warns at start). */
      tls: AgentctlTls | undefined;
      /** Where that agentctl sees the backend's workspaces dir (shared storage); undefined: it does not. */
      workspacesDir?: string;
    }
  | KubernetesEntry;

export interface ExecutorsConfig {
  defaultName: string;
  entries: readonly ExecutorEntry[];
  /** DOCKER_HOST (unix:///path or tcp://host:port); the engine's default socket when undefined. */
  dockerHost: string | undefined;
}

/** Thrown with the variable names that are wrong. */
export class ExecutorConfigError extends Error {
  constructor(readonly variables: string[]) {
    super(`invalid executor configuration: ${variables.join(', ')}`);
  }
}

const HOST_PORT = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/;
const tokenSchema = z.string().trim().min(CONTROL_TOKEN_MIN_LENGTH).regex(/^\S+$/);

const RemoteProfileSchema = z
  .object({
    kind: z.literal('remote'),
    address: z.string().regex(HOST_PORT),
    mcp_url: z.url(),
    token: tokenSchema.optional(),
    token_file: z.string().min(1).optional(),
    tls: ClientTlsSchema.optional(),
    insecure: z.boolean().optional(),
    workspaces_dir: z.string().refine(isAbsolute).optional(),
  })
  .strict();
const DockerProfileSchema = z
  .object({
    kind: z.literal('docker'),
    image: z.string().min(1).optional(),
    network: z.string().min(1).optional(),
    tls: DockerTlsSchema.optional(),
  })
  .strict();
/** Checked field by field in kubernetes-config.ts, so a refusal names the wrong field. */
const KubernetesProfileShape = z.object({ kind: z.literal('kubernetes') }).passthrough();
const ProfilesSchema = z.record(
  z.string().regex(NAME),
  z.discriminatedUnion('kind', [RemoteProfileSchema, DockerProfileSchema, KubernetesProfileShape]),
);

const EnvSchema = z.object({
  KANDEV_EXECUTORS: z.string().default('local'),
  KANDEV_DEFAULT_EXECUTOR: z.string().regex(NAME).optional(),
  KANDEV_EXECUTOR_PROFILES: z.string().optional(),
  KANDEV_REMOTE_AGENTCTL_ADDRESS: z.string().regex(HOST_PORT).optional(),
  KANDEV_REMOTE_AGENTCTL_MCP_URL: z.url().optional(),
  KANDEV_REMOTE_AGENTCTL_TOKEN: tokenSchema.optional(),
  KANDEV_REMOTE_AGENTCTL_TOKEN_FILE: z.string().min(1).optional(),
  KANDEV_REMOTE_AGENTCTL_TLS_CA: z.string().min(1).optional(),
  KANDEV_REMOTE_AGENTCTL_TLS_CERT: z.string().min(1).optional(),
  KANDEV_REMOTE_AGENTCTL_TLS_KEY: z.string().min(1).optional(),
  KANDEV_REMOTE_AGENTCTL_TLS_SERVER_NAME: z.string().min(1).optional(),
  KANDEV_REMOTE_AGENTCTL_INSECURE: z.enum(['true', 'false']).optional(),
  KANDEV_REMOTE_AGENTCTL_WORKSPACES_DIR: z.string().refine(isAbsolute).optional(),
  KANDEV_DOCKER_IMAGE: z.string().min(1).default(DEFAULT_DOCKER_IMAGE),
  KANDEV_DOCKER_PUBLISH_HOST: z.string().min(1).default('127.0.0.1'),
  KANDEV_DOCKER_NETWORK: z.string().min(1).optional(),
  KANDEV_DOCKER_START_TIMEOUT_MS: z.coerce.number().int().positive().max(600_000).default(30_000),
  DOCKER_HOST: z
    .string()
    .regex(/^(unix|tcp|http):\/\//)
    .optional(),
});

function remoteToken(token: string | undefined, file: string | undefined, readText: ReadTextFile): string | undefined {
  if (token !== undefined) return file === undefined ? token : undefined;
  if (file === undefined) return undefined;
  try {
    const parsed = tokenSchema.safeParse(readText(file));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A remote agentctl is dialled across a network: TLS, or an explicit `insecure: true` (never
 * plaintext by omission, and never both).
 */
function remoteTls(
  files: z.infer<typeof ClientTlsSchema> | undefined,
  insecure: boolean,
  names: { tls: string; insecure: string; field: (field: string) => string },
  readText: ReadTextFile,
): AgentctlTls | undefined {
  if (files === undefined && !insecure) throw new TlsConfigError([`${names.tls} (or ${names.insecure})`]);
  if (files !== undefined && insecure) throw new TlsConfigError([`${names.tls} and ${names.insecure} (not both)`]);
  return files === undefined ? undefined : clientTls(files, names.field, readText);
}

const REMOTE_ENV_TLS = {
  tls: 'KANDEV_REMOTE_AGENTCTL_TLS_CA',
  insecure: 'KANDEV_REMOTE_AGENTCTL_INSECURE=true',
  field: (field: string) => `KANDEV_REMOTE_AGENTCTL_TLS_${field.toUpperCase()}`,
};

function remoteEnvTlsFiles(e: z.infer<typeof EnvSchema>): z.infer<typeof ClientTlsSchema> | undefined {
  const ca = e.KANDEV_REMOTE_AGENTCTL_TLS_CA;
  if (ca === undefined) {
    const stray = ['CERT', 'KEY', 'SERVER_NAME'].filter(
      (f) => e[`KANDEV_REMOTE_AGENTCTL_TLS_${f}` as keyof typeof e] !== undefined,
    );
    if (stray.length > 0) throw new TlsConfigError([`KANDEV_REMOTE_AGENTCTL_TLS_CA (needed by ${stray.join(', ')})`]);
    return undefined;
  }
  return {
    ca,
    cert: e.KANDEV_REMOTE_AGENTCTL_TLS_CERT,
    key: e.KANDEV_REMOTE_AGENTCTL_TLS_KEY,
    server_name: e.KANDEV_REMOTE_AGENTCTL_TLS_SERVER_NAME,
  };
}

function parseProfiles(text: string | undefined): z.infer<typeof ProfilesSchema> | undefined {
  if (text === undefined) return {};
  try {
    const parsed = ProfilesSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The executors to build, from the environment (blank variables already removed). */
export function parseExecutorsConfig(
  env: Readonly<Record<string, string | undefined>>,
  readText: ReadTextFile,
): ExecutorsConfig {
  try {
    return parseExecutors(env, readText);
  } catch (error) {
    if (error instanceof TlsConfigError) throw new ExecutorConfigError(error.variables);
    throw error;
  }
}

function parseExecutors(env: Readonly<Record<string, string | undefined>>, readText: ReadTextFile): ExecutorsConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ExecutorConfigError([...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].sort());
  }
  const e = parsed.data;
  const kinds = [
    ...new Set(
      e.KANDEV_EXECUTORS.split(',')
        .map((kind) => kind.trim())
        .filter((k) => k.length > 0),
    ),
  ];
  // `none` alone: no built-in executor, only the profiles (a cluster, where a `local` agentctl inside a
  // backend pod would serve that replica alone).
  const none = kinds.length === 1 && kinds[0] === 'none';
  if (none) kinds.length = 0;
  else if (kinds.length === 0 || kinds.some((kind) => !(EXECUTOR_KINDS as readonly string[]).includes(kind))) {
    throw new ExecutorConfigError(['KANDEV_EXECUTORS']);
  }
  const docker = (
    name: string,
    image = e.KANDEV_DOCKER_IMAGE,
    network = e.KANDEV_DOCKER_NETWORK,
    tls: DockerTls | undefined = undefined,
  ): ExecutorEntry => ({
    name,
    kind: 'docker',
    image,
    publishHost: e.KANDEV_DOCKER_PUBLISH_HOST,
    network,
    startTimeoutMs: e.KANDEV_DOCKER_START_TIMEOUT_MS,
    tls,
  });
  const entries: ExecutorEntry[] = [];
  for (const kind of kinds) {
    if (kind === 'local') entries.push({ name: 'local', kind: 'local' });
    else if (kind === 'docker') entries.push(docker('docker'));
    else {
      const token = remoteToken(e.KANDEV_REMOTE_AGENTCTL_TOKEN, e.KANDEV_REMOTE_AGENTCTL_TOKEN_FILE, readText);
      const missing = [
        ...(e.KANDEV_REMOTE_AGENTCTL_ADDRESS === undefined ? ['KANDEV_REMOTE_AGENTCTL_ADDRESS'] : []),
        ...(e.KANDEV_REMOTE_AGENTCTL_MCP_URL === undefined ? ['KANDEV_REMOTE_AGENTCTL_MCP_URL'] : []),
        ...(token === undefined ? ['KANDEV_REMOTE_AGENTCTL_TOKEN', 'KANDEV_REMOTE_AGENTCTL_TOKEN_FILE'] : []),
      ];
      if (missing.length > 0 || token === undefined) throw new ExecutorConfigError(missing);
      entries.push({
        name: 'remote',
        kind: 'remote',
        grpcAddress: e.KANDEV_REMOTE_AGENTCTL_ADDRESS ?? '',
        mcpBaseUrl: (e.KANDEV_REMOTE_AGENTCTL_MCP_URL ?? '').replace(/\/+$/, ''),
        controlToken: token,
        tls: remoteTls(remoteEnvTlsFiles(e), e.KANDEV_REMOTE_AGENTCTL_INSECURE === 'true', REMOTE_ENV_TLS, readText),
        ...(e.KANDEV_REMOTE_AGENTCTL_WORKSPACES_DIR === undefined
          ? {}
          : { workspacesDir: e.KANDEV_REMOTE_AGENTCTL_WORKSPACES_DIR }),
      });
    }
  }
  const profiles = parseProfiles(e.KANDEV_EXECUTOR_PROFILES);
  if (profiles === undefined) throw new ExecutorConfigError(['KANDEV_EXECUTOR_PROFILES']);
  for (const [name, profile] of Object.entries(profiles)) {
    if (entries.some((entry) => entry.name === name)) throw new ExecutorConfigError(['KANDEV_EXECUTOR_PROFILES']);
    if (profile.kind === 'kubernetes') {
      entries.push(kubernetesEntry(name, profile, { image: e.KANDEV_DOCKER_IMAGE }, readText));
      continue;
    }
    if (profile.kind === 'docker') {
      const tls = profile.tls === undefined ? undefined : dockerTls(profile.tls, name, readText);
      entries.push(docker(name, profile.image, profile.network, tls));
      continue;
    }
    const token = remoteToken(profile.token, profile.token_file, readText);
    if (token === undefined) throw new ExecutorConfigError(['KANDEV_EXECUTOR_PROFILES']);
    const mcpBaseUrl = profile.mcp_url.replace(/\/+$/, '');
    const field = (f: string) => `KANDEV_EXECUTOR_PROFILES.${name}.tls.${f}`;
    const names = { tls: field('ca'), insecure: `KANDEV_EXECUTOR_PROFILES.${name}.insecure: true`, field };
    const tls = remoteTls(profile.tls, profile.insecure === true, names, readText);
    const shared = profile.workspaces_dir === undefined ? {} : { workspacesDir: profile.workspaces_dir };
    entries.push({
      name,
      kind: 'remote',
      grpcAddress: profile.address,
      mcpBaseUrl,
      controlToken: token,
      tls,
      ...shared,
    });
  }
  if (entries.length === 0) throw new ExecutorConfigError(['KANDEV_EXECUTORS', 'KANDEV_EXECUTOR_PROFILES']);
  const defaultName = e.KANDEV_DEFAULT_EXECUTOR ?? entries[0]?.name ?? 'local';
  if (!entries.some((entry) => entry.name === defaultName)) throw new ExecutorConfigError(['KANDEV_DEFAULT_EXECUTOR']);
  return { defaultName, entries, dockerHost: e.DOCKER_HOST };
}
