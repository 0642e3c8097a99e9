import { posix } from 'node:path';
import type { V1Container, V1EnvVar, V1Pod, V1Secret, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { LABELS } from '../docker/docker-container-spec';
import type { AgentctlServerTls } from '../executor-tls-config';
import type { WorkspaceMount } from '../../agentctl/executor';
import type { KubernetesEntry } from './kubernetes-config';

// Pure: what a kubernetes-executor pod and its Secret look like (labels, env, volumes) and how to read
// a pod's state back. No API calls here. Type-only imports from the client library.

/** The marker on every pod and Secret this executor makes (`dev.kandev.managed-by`). */
export const MANAGED_BY = 'kandev-kubernetes-executor';
/** Where the Secret (token, TLS files) is mounted read-only: never an env var, so no pod spec holds it. */
export const SECRET_MOUNT = '/run/secrets/kandev';
export const SECRET_KEYS = {
  token: 'token',
  cert: 'tls-cert.pem',
  key: 'tls-key.pem',
  clientCa: 'tls-client-ca.pem',
} as const;
/** Where the task workspace (the claim, at the task's sub path) is mounted; the agent's cwd is there. */
export const POD_WORKSPACE_MOUNT = '/workspace';
export const AGENTCTL_CONTAINER = 'agentctl';
/**
 * A pod's requests and limits when its profile names none (per section): every agentctl pod is limited,
 * so one runaway agent cannot starve the node. The profile's `resources.requests`/`limits` replace these.
 */
export const DEFAULT_POD_RESOURCES = {
  requests: { cpu: '250m', memory: '512Mi' },
  limits: { cpu: '2', memory: '4Gi' },
} as const;

export interface PodSpecInput {
  profile: KubernetesEntry;
  /** The label value shared by every replica of this deployment. */
  backendId: string;
  /** Pod and Secret name. */
  name: string;
  sessionId: string;
  agentctlId: string;
  logLevel: string;
  toolCallTimeoutMs: number | undefined;
  /** The backend's KANDEV_WORKSPACES_DIR: the claim's root as the backend sees it. */
  workspacesDir: string;
  workspace: WorkspaceMount | undefined;
}

export function podLabels(
  input: Pick<PodSpecInput, 'backendId' | 'sessionId' | 'agentctlId'> & { executor: string },
): Record<string, string> {
  return {
    [LABELS.managed]: MANAGED_BY,
    [LABELS.backend]: input.backendId,
    [LABELS.executor]: input.executor,
    [LABELS.session]: input.sessionId,
    [LABELS.agentctl]: input.agentctlId,
  };
}

/** The label selector for this deployment's pods (and Secrets) of one executor, optionally one session's. */
export function labelSelector(backendId: string, executor: string, sessionId?: string): string {
  const terms = [`${LABELS.managed}=${MANAGED_BY}`, `${LABELS.backend}=${backendId}`, `${LABELS.executor}=${executor}`];
  if (sessionId !== undefined) terms.push(`${LABELS.session}=${sessionId}`);
  return terms.join(',');
}

/** The pod's Secret: the control token and, with TLS, agentctl's certificate, key and client CA. */
export function secretSpec(input: PodSpecInput, token: string, tls: AgentctlServerTls | undefined): V1Secret {
  const data: Record<string, string> = { [SECRET_KEYS.token]: token };
  if (tls !== undefined) {
    data[SECRET_KEYS.cert] = tls.cert;
    data[SECRET_KEYS.key] = tls.key;
    if (tls.clientCa !== undefined) data[SECRET_KEYS.clientCa] = tls.clientCa;
  }
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'Opaque',
    metadata: { name: input.name, labels: podLabels({ ...input, executor: input.profile.name }) },
    // `data` is base64 on the wire; stringData would be echoed back the same way.
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  };
}

function tlsEnv(tls: AgentctlServerTls | undefined): V1EnvVar[] {
  if (tls === undefined) return [];
  const at = (key: string) => posix.join(SECRET_MOUNT, key);
  return [
    { name: 'KANDEV_AGENTCTL_TLS_CERT', value: at(SECRET_KEYS.cert) },
    { name: 'KANDEV_AGENTCTL_TLS_KEY', value: at(SECRET_KEYS.key) },
    ...(tls.clientCa === undefined ? [] : [{ name: 'KANDEV_AGENTCTL_TLS_CLIENT_CA', value: at(SECRET_KEYS.clientCa) }]),
  ];
}

/** `path` below `root`, as a claim sub path; undefined when it is not strictly inside. */
export function subPathOf(root: string, path: string): string | undefined {
  const rel = posix.relative(posix.resolve(root), posix.resolve(path));
  return rel.length === 0 || rel.startsWith('..') || posix.isAbsolute(rel) ? undefined : rel;
}

/**
 * The workspace mounts: the claim at the task's sub path on /workspace, and each worktree's git dir that
 * lives on the claim at its own absolute path (a worktree's `.git` file names it). Git dirs elsewhere
 * are not on the claim and are listed in `unreachable` (the caller logs them).
 */
export function workspaceMounts(input: Pick<PodSpecInput, 'profile' | 'workspacesDir' | 'workspace'>): {
  volumes: V1Volume[];
  mounts: V1VolumeMount[];
  unreachable: string[];
} {
  const claim = input.profile.workspacesClaim;
  if (input.workspace === undefined || claim === undefined) return { volumes: [], mounts: [], unreachable: [] };
  const root = subPathOf(input.workspacesDir, input.workspace.hostPath);
  if (root === undefined) return { volumes: [], mounts: [], unreachable: [input.workspace.hostPath] };
  const mounts: V1VolumeMount[] = [{ name: 'workspace', mountPath: POD_WORKSPACE_MOUNT, subPath: root }];
  const unreachable: string[] = [];
  for (const dir of new Set(input.workspace.gitDirs)) {
    const sub = subPathOf(input.workspacesDir, dir);
    if (sub === undefined) unreachable.push(dir);
    else mounts.push({ name: 'workspace', mountPath: dir, subPath: sub });
  }
  return { volumes: [{ name: 'workspace', persistentVolumeClaim: { claimName: claim } }], mounts, unreachable };
}

export function podSpec(input: PodSpecInput, tls: AgentctlServerTls | undefined): V1Pod {
  const { profile } = input;
  const ws = workspaceMounts(input);
  const container: V1Container = {
    name: AGENTCTL_CONTAINER,
    image: profile.image,
    ...(profile.imagePullPolicy === undefined ? {} : { imagePullPolicy: profile.imagePullPolicy }),
    env: [
      { name: 'KANDEV_AGENTCTL_TOKEN_FILE', value: posix.join(SECRET_MOUNT, SECRET_KEYS.token) },
      { name: 'KANDEV_AGENTCTL_HOST', value: '0.0.0.0' },
      { name: 'KANDEV_AGENTCTL_GRPC_PORT', value: String(profile.grpcPort) },
      { name: 'KANDEV_AGENTCTL_MCP_PORT', value: String(profile.mcpPort) },
      // Agents reach MCP at the pod's IP: its Host header must pass agentctl's check.
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'KANDEV_AGENTCTL_ALLOWED_HOSTS', value: '$(POD_IP)' },
      { name: 'LOG_LEVEL', value: input.logLevel },
      ...(input.toolCallTimeoutMs === undefined
        ? []
        : [{ name: 'KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS', value: String(input.toolCallTimeoutMs) }]),
      ...tlsEnv(tls),
      ...(ws.mounts.length > 0 ? [{ name: 'HOME', value: '/tmp' }] : []),
    ],
    ports: [
      { name: 'grpc', containerPort: profile.grpcPort },
      { name: 'mcp', containerPort: profile.mcpPort },
    ],
    // Kubernetes' own gRPC probe cannot speak TLS: the kubelet checks the port, the backend checks gRPC health.
    readinessProbe: { tcpSocket: { port: profile.grpcPort }, periodSeconds: 2 },
    volumeMounts: [{ name: 'kandev-secret', mountPath: SECRET_MOUNT, readOnly: true }, ...ws.mounts],
    resources: {
      requests: { ...(profile.resources?.requests ?? DEFAULT_POD_RESOURCES.requests) },
      limits: { ...(profile.resources?.limits ?? DEFAULT_POD_RESOURCES.limits) },
    },
    // Pod Security `restricted` (the namespace in deploy/kubernetes enforces it).
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  };
  // Pod Security `restricted`: never root (the images' USER is numeric, so the kubelet can check it
  // without run_as_user), the runtime's default seccomp profile.
  const securityContext = {
    runAsNonRoot: true,
    ...(profile.runAsUser === undefined ? {} : { runAsUser: profile.runAsUser }),
    ...(profile.runAsGroup === undefined ? {} : { runAsGroup: profile.runAsGroup }),
    seccompProfile: { type: 'RuntimeDefault' },
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: input.name, labels: podLabels({ ...input, executor: profile.name }) },
    spec: {
      containers: [container],
      // Removal is the executor's job (it reports the exit first); no restart behind its back.
      restartPolicy: 'Never',
      // agentctl never calls the Kubernetes API.
      automountServiceAccountToken: false,
      ...(profile.serviceAccount === undefined ? {} : { serviceAccountName: profile.serviceAccount }),
      ...(profile.nodeSelector === undefined ? {} : { nodeSelector: profile.nodeSelector }),
      securityContext,
      volumes: [{ name: 'kandev-secret', secret: { secretName: input.name, defaultMode: 0o444 } }, ...ws.volumes],
    },
  };
}

export type PodCondition =
  { state: 'pending' } | { state: 'running'; podIp: string } | { state: 'ended'; reason: string };

/** What the executor needs from a pod's status: still coming up, up at an IP, or ended (and why). */
export function podCondition(pod: V1Pod): PodCondition {
  const phase = pod.status?.phase;
  const terminated = pod.status?.containerStatuses?.find((s) => s.name === AGENTCTL_CONTAINER)?.state?.terminated;
  if (pod.metadata?.deletionTimestamp !== undefined) return { state: 'ended', reason: 'agentctl pod is being deleted' };
  if (phase === 'Failed' || phase === 'Succeeded' || terminated !== undefined) {
    const code = terminated?.exitCode;
    const why = terminated?.reason ?? pod.status?.reason ?? phase ?? 'terminated';
    return { state: 'ended', reason: `agentctl pod ended (${why}${code === undefined ? '' : `, exit ${code}`})` };
  }
  const podIp = pod.status?.podIP;
  if (phase === 'Running' && podIp !== undefined && podIp.length > 0) return { state: 'running', podIp };
  return { state: 'pending' };
}
