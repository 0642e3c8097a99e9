// Backend replicas started with the settings deploy/kubernetes's production overlay gives each backend
// pod, as processes here: the overlay's generated settings read from its kustomization files (listening
// on every interface, the Service's names and the Ingress host allowed, no built-in executor, the
// `cluster` profile by default), one PostgreSQL database, the secret key and the API token mounted as
// 0600 files (KANDEV_SECRET_KEY_FILE, KANDEV_API_TOKEN_FILE), and a data dir of its own each start (an
// emptyDir: nothing a replica needs may live there). Only the `cluster` profile differs: its agentctl
// is one shared process reached as a remote one (in the cluster: agentctl pods).
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from './backend-api';
import type { Cleanup } from './cleanup';
import {
  type AgentctlReady,
  type BackendReady,
  type Daemon,
  startDaemon,
  stopProcess,
  BACKEND_MAIN,
  REPO_ROOT,
  TEST_CONTROL_TOKEN,
  tempDir,
} from './processes';
import { waitUntil } from './wait';

/** The Service's names, as the production overlay lists them (hosts are matched without the port). */
export const SERVICE_HOSTS = [
  'kandev-backend',
  'kandev-backend.kandev',
  'kandev-backend.kandev.svc',
  'kandev-backend.kandev.svc.cluster.local',
];

const KUSTOMIZATIONS = ['base', 'overlays/production'].map((dir) =>
  join(REPO_ROOT, 'deploy/kubernetes', dir, 'kustomization.yaml'),
);

/**
 * The settings the production overlay generates for every backend pod (kandev-backend-config): the
 * base's `KANDEV_…=…` literals, then the overlay's, which replace them (behavior: merge).
 */
export function overlaySettings(): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const file of KUSTOMIZATIONS) {
    for (const [, name, value] of readFileSync(file, 'utf8').matchAll(/^\s*- (KANDEV_[A-Z0-9_]+)=(.*)$/gm)) {
      if (name !== undefined && value !== undefined) settings[name] = value.trim();
    }
  }
  return settings;
}

export interface ProductionSecrets {
  /** KANDEV_SECRET_KEY_FILE: 32 random bytes, hex, mode 0600 (a mounted Secret). */
  secretKeyFile: string;
  /** KANDEV_API_TOKEN_FILE, mode 0600. */
  apiTokenFile: string;
  apiToken: string;
}

/** The two Secrets a platform team creates before the first start (docs/operations.md). */
export function productionSecrets(cleanup: Cleanup): ProductionSecrets {
  const dir = tempDir(cleanup, 'kandev-secrets-');
  const secretKeyFile = join(dir, 'secret-key');
  writeFileSync(secretKeyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
  const apiToken = randomBytes(24).toString('hex');
  const apiTokenFile = join(dir, 'api-token');
  writeFileSync(apiTokenFile, `${apiToken}\n`, { mode: 0o600 });
  return { secretKeyFile, apiTokenFile, apiToken };
}

export interface ProductionReplica extends Daemon<BackendReady> {
  api: BackendApi;
  url: string;
  /** SIGTERM, as the kubelet stops a pod; resolves once it exited. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ProductionSettings {
  databaseUrl: string;
  secrets: ProductionSecrets;
  agentctl: Daemon<AgentctlReady>;
  /** Extra environment (e.g. the GitLab stand-in's host allowed over http). */
  env?: Record<string, string>;
}

/** The environment of one backend pod; `withoutKey` leaves out the secret key (a misconfigured pod). */
export function productionEnv(settings: ProductionSettings, options: { withoutKey?: boolean } = {}) {
  const { grpcPort, mcpPort } = settings.agentctl.ready;
  const overlay = overlaySettings();
  const profile = overlay.KANDEV_DEFAULT_EXECUTOR ?? 'cluster';
  const agentctl = {
    kind: 'remote',
    address: `127.0.0.1:${grpcPort}`,
    mcp_url: `http://127.0.0.1:${mcpPort}`,
    token: TEST_CONTROL_TOKEN,
    insecure: true,
  };
  return {
    ...overlay,
    KANDEV_DATABASE_URL: settings.databaseUrl,
    ...(options.withoutKey === true ? {} : { KANDEV_SECRET_KEY_FILE: settings.secrets.secretKeyFile }),
    KANDEV_API_TOKEN_FILE: settings.secrets.apiTokenFile,
    KANDEV_HTTP_PORT: '0',
    KANDEV_EXECUTOR_PROFILES: JSON.stringify({ [profile]: agentctl }),
    KANDEV_WORKSPACE_CHECKOUT: 'false',
    ...settings.env,
  };
}

/** Starts one replica on a fresh data dir and waits until GET /readyz answers 200. */
export async function startProductionReplica(
  cleanup: Cleanup,
  settings: ProductionSettings,
  options: { withoutKey?: boolean } = {},
): Promise<ProductionReplica> {
  const env = {
    ...productionEnv(settings, options),
    KANDEV_DATA_DIR: tempDir(cleanup, 'kandev-pod-'),
    KANDEV_WORKSPACES_DIR: tempDir(cleanup, 'kandev-workspaces-'),
  };
  const daemon = await startDaemon<BackendReady>(cleanup, BACKEND_MAIN, env);
  cleanup.defer(() => stopProcess(daemon.child, { graceMs: 10_000 })); // graceful first (cleanup is a stack)
  const url = daemon.ready.url;
  await waitUntil(async () => (await fetch(`${url}/readyz`)).status === 200, {
    timeoutMs: 30_000,
    logs: daemon.logs,
    what: 'replica ready',
  });
  return {
    ...daemon,
    url,
    api: new BackendApi(url, settings.secrets.apiToken),
    stop: () => stopProcess(daemon.child, { graceMs: 10_000 }),
  };
}

/** Starts `count` replicas one after another (the first applies the migrations). */
export async function startProductionReplicas(
  cleanup: Cleanup,
  settings: ProductionSettings,
  count: number,
): Promise<ProductionReplica[]> {
  const replicas: ProductionReplica[] = [];
  for (let i = 0; i < count; i += 1) replicas.push(await startProductionReplica(cleanup, settings));
  return replicas;
}
