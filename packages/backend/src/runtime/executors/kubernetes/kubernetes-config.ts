import { z } from 'zod';
import { type DockerTls, DockerTlsSchema, dockerTls, type ReadTextFile, TlsConfigError } from '../executor-tls-config';

// Pure: a `kind: "kubernetes"` executor profile (KANDEV_EXECUTOR_PROFILES). executor-config.ts hands
// each such profile here; every refusal names the profile's fields (never their values).

/** A label value (Kubernetes: 63 characters, alphanumeric at both ends, `-_.` inside). */
const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?)$/;
/** A DNS-1123 name (namespaces, service accounts, claims). */
const DNS_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const QUANTITY = /^[0-9]+(?:\.[0-9]+)?(?:m|k|Ki|M|Mi|G|Gi|T|Ti)?$/;
const port = z.number().int().min(1).max(65_535);
const quantities = z
  .object({ cpu: z.string().regex(QUANTITY).optional(), memory: z.string().regex(QUANTITY).optional() })
  .strict();

export const KubernetesProfileSchema = z
  .object({
    kind: z.literal('kubernetes'),
    image: z.string().min(1).optional(),
    namespace: z.string().regex(DNS_NAME).optional(),
    service_account: z.string().regex(DNS_NAME).optional(),
    backend_id: z.string().regex(LABEL_VALUE).optional(),
    grpc_port: port.optional(),
    mcp_port: port.optional(),
    workspaces_claim: z.string().regex(DNS_NAME).optional(),
    resources: z.object({ requests: quantities.optional(), limits: quantities.optional() }).strict().optional(),
    image_pull_policy: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
    node_selector: z.record(z.string().min(1), z.string().regex(LABEL_VALUE)).optional(),
    // Not 0: the pods run under Pod Security `restricted` (runAsNonRoot).
    run_as_user: z.number().int().min(1).optional(),
    run_as_group: z.number().int().min(0).optional(),
    start_timeout_ms: z.number().int().positive().max(600_000).optional(),
    tls: DockerTlsSchema.optional(),
    insecure: z.boolean().optional(),
  })
  .strict();

export interface KubernetesEntry {
  name: string;
  kind: 'kubernetes';
  image: string;
  namespace: string;
  serviceAccount: string | undefined;
  /** The label value that marks this deployment's pods; undefined: the data dir's backend id. */
  backendId: string | undefined;
  grpcPort: number;
  mcpPort: number;
  /** The PersistentVolumeClaim that holds KANDEV_WORKSPACES_DIR; undefined: pods mount no workspace. */
  workspacesClaim: string | undefined;
  resources: { requests?: Record<string, string>; limits?: Record<string, string> } | undefined;
  imagePullPolicy: 'Always' | 'IfNotPresent' | 'Never' | undefined;
  nodeSelector: Record<string, string> | undefined;
  runAsUser: number | undefined;
  runAsGroup: number | undefined;
  startTimeoutMs: number;
  /** Undefined only when the profile says `insecure: true` (pod traffic crosses the cluster network). */
  tls: DockerTls | undefined;
}

export const KUBERNETES_DEFAULTS = {
  namespace: 'default',
  grpcPort: 7421,
  mcpPort: 7422,
  // A first start may pull the image.
  startTimeoutMs: 120_000,
} as const;

function field(name: string, path: readonly PropertyKey[]): string {
  return [`KANDEV_EXECUTOR_PROFILES.${name}`, ...path.map(String)].join('.');
}

/** A kubernetes profile, or a TlsConfigError naming each wrong field. */
export function kubernetesEntry(
  name: string,
  raw: unknown,
  defaults: { image: string },
  readText: ReadTextFile,
): KubernetesEntry {
  const parsed = KubernetesProfileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TlsConfigError([...new Set(parsed.error.issues.map((issue) => field(name, issue.path)))].sort());
  }
  const p = parsed.data;
  // Like a remote agentctl: TLS, or an explicit `insecure: true` (never plaintext by omission, never both).
  if (p.tls === undefined && p.insecure !== true) {
    throw new TlsConfigError([`${field(name, ['tls'])} (or ${field(name, ['insecure'])}: true)`]);
  }
  if (p.tls !== undefined && p.insecure === true) {
    throw new TlsConfigError([`${field(name, ['tls'])} and ${field(name, ['insecure'])} (not both)`]);
  }
  if ((p.grpc_port ?? KUBERNETES_DEFAULTS.grpcPort) === (p.mcp_port ?? KUBERNETES_DEFAULTS.mcpPort)) {
    throw new TlsConfigError([`${field(name, ['grpc_port'])} and ${field(name, ['mcp_port'])} (must differ)`]);
  }
  return {
    name,
    kind: 'kubernetes',
    image: p.image ?? defaults.image,
    namespace: p.namespace ?? KUBERNETES_DEFAULTS.namespace,
    serviceAccount: p.service_account,
    backendId: p.backend_id,
    grpcPort: p.grpc_port ?? KUBERNETES_DEFAULTS.grpcPort,
    mcpPort: p.mcp_port ?? KUBERNETES_DEFAULTS.mcpPort,
    workspacesClaim: p.workspaces_claim,
    resources: p.resources,
    imagePullPolicy: p.image_pull_policy,
    nodeSelector: p.node_selector,
    runAsUser: p.run_as_user,
    runAsGroup: p.run_as_group,
    startTimeoutMs: p.start_timeout_ms ?? KUBERNETES_DEFAULTS.startTimeoutMs,
    tls: p.tls === undefined ? undefined : dockerTls(p.tls, name, readText),
  };
}
