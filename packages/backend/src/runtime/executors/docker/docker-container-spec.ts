import type { ContainerCreateOptions, ContainerInspectInfo } from 'dockerode';
import type { ContainerTlsFiles } from './docker-tls-files';
import type { WorkspaceMount } from '../../agentctl/executor';

// Pure: what a docker-executor container looks like (labels, ports, mounts, env) and how to read its
// published ports back. No Docker API calls here.

/** Labels on every container the docker executor starts; a restarted backend finds its own by them. */
export const LABELS = {
  managed: 'dev.kandev.managed-by',
  backend: 'dev.kandev.backend-id',
  executor: 'dev.kandev.executor',
  session: 'dev.kandev.session-id',
  agentctl: 'dev.kandev.agentctl-id',
} as const;

export const MANAGED_BY = 'kandev-docker-executor';
/** agentctl's ports inside the container (the image's defaults); published on the host at random ports. */
export const CONTAINER_GRPC_PORT = 7421;
export const CONTAINER_MCP_PORT = 7422;
/** Where the control token file is mounted (read-only): never an env var, so `docker inspect` shows no token. */
export const CONTAINER_TOKEN_PATH = '/run/secrets/kandev-agentctl-token';
/** Where agentctl's TLS certificate, key and client CA are mounted (read-only), when the profile has TLS. */
export const CONTAINER_TLS_PATHS = {
  cert: '/run/secrets/kandev-agentctl-tls-cert.pem',
  key: '/run/secrets/kandev-agentctl-tls-key.pem',
  clientCa: '/run/secrets/kandev-agentctl-tls-client-ca.pem',
} as const;

/** Where the session's task workspace is bind-mounted (read-write); the agent's cwd is there. */
export const CONTAINER_WORKSPACE_MOUNT = '/workspace';
/** HOME of a container that runs as the backend's uid (no home in the image for it). */
export const CONTAINER_WORKSPACE_HOME = '/tmp';

/**
 * The workspace bind mounts: the task workspace at CONTAINER_WORKSPACE_MOUNT, and each source
 * repository's git dir at its own absolute path, because a worktree's `.git` file names that path.
 */
export function workspaceBinds(workspace: WorkspaceMount | undefined): string[] {
  if (workspace === undefined) return [];
  const gitDirs = [...new Set(workspace.gitDirs)].filter((dir) => dir !== CONTAINER_WORKSPACE_MOUNT);
  return [`${workspace.hostPath}:${CONTAINER_WORKSPACE_MOUNT}`, ...gitDirs.map((dir) => `${dir}:${dir}`)];
}

export interface ContainerSpecInput {
  image: string;
  name: string;
  backendId: string;
  executorName: string;
  sessionId: string;
  agentctlId: string;
  /** Host path of the token file, bind-mounted read-only. */
  tokenFile: string;
  /** Host address the ports are published on (127.0.0.1 by default: never reachable from outside). */
  publishHost: string;
  logLevel: string;
  toolCallTimeoutMs: number | undefined;
  /** Docker network mode; undefined: the engine's default bridge. */
  network: string | undefined;
  /** Host paths of agentctl's TLS files; undefined: plaintext gRPC. */
  tlsFiles?: ContainerTlsFiles;
  /** The session's task workspace; undefined: no code is mounted. */
  workspace?: WorkspaceMount;
  /**
   * `uid:gid` the container runs as when it mounts a workspace: the backend's own, so the agent can
   * write the files the backend checked out (the image's user has another uid). Undefined: the image's.
   */
  workspaceUser?: string;
}

/** The container's user and HOME when it mounts a workspace (a uid without a home gets a writable one). */
function workspaceUserSetup(input: ContainerSpecInput): { user: { User?: string }; env: string[] } {
  if (input.workspace === undefined || input.workspaceUser === undefined) return { user: {}, env: [] };
  return { user: { User: input.workspaceUser }, env: [`HOME=${CONTAINER_WORKSPACE_HOME}`] };
}

/** agentctl's TLS variables and the read-only mounts they point at. */
function tlsSetup(files: ContainerTlsFiles | undefined): { env: string[]; binds: string[] } {
  if (files === undefined) return { env: [], binds: [] };
  const pairs: [string, string, string][] = [
    ['KANDEV_AGENTCTL_TLS_CERT', files.cert, CONTAINER_TLS_PATHS.cert],
    ['KANDEV_AGENTCTL_TLS_KEY', files.key, CONTAINER_TLS_PATHS.key],
    ...(files.clientCa === undefined
      ? []
      : [['KANDEV_AGENTCTL_TLS_CLIENT_CA', files.clientCa, CONTAINER_TLS_PATHS.clientCa] as [string, string, string]]),
  ];
  return {
    env: pairs.map(([variable, , inside]) => `${variable}=${inside}`),
    binds: pairs.map(([, host, inside]) => `${host}:${inside}:ro`),
  };
}

export function containerLabels(
  input: Pick<ContainerSpecInput, 'backendId' | 'executorName' | 'sessionId' | 'agentctlId'>,
): Record<string, string> {
  return {
    [LABELS.managed]: MANAGED_BY,
    [LABELS.backend]: input.backendId,
    [LABELS.executor]: input.executorName,
    [LABELS.session]: input.sessionId,
    [LABELS.agentctl]: input.agentctlId,
  };
}

/** The label filter for this backend's containers of one executor (optionally one session's). */
export function labelFilter(backendId: string, executorName: string, sessionId?: string): { label: string[] } {
  const label = [
    `${LABELS.managed}=${MANAGED_BY}`,
    `${LABELS.backend}=${backendId}`,
    `${LABELS.executor}=${executorName}`,
  ];
  if (sessionId !== undefined) label.push(`${LABELS.session}=${sessionId}`);
  return { label };
}

export function containerSpec(input: ContainerSpecInput): ContainerCreateOptions {
  const grpc = `${CONTAINER_GRPC_PORT}/tcp`;
  const mcp = `${CONTAINER_MCP_PORT}/tcp`;
  const publish = [{ HostIp: input.publishHost, HostPort: '' }]; // '' = a free port chosen by the engine
  const tls = tlsSetup(input.tlsFiles);
  const runAs = workspaceUserSetup(input);
  return {
    name: input.name,
    Image: input.image,
    ...runAs.user,
    Labels: containerLabels(input),
    Env: [
      `KANDEV_AGENTCTL_TOKEN_FILE=${CONTAINER_TOKEN_PATH}`,
      'KANDEV_AGENTCTL_HOST=0.0.0.0',
      `KANDEV_AGENTCTL_GRPC_PORT=${CONTAINER_GRPC_PORT}`,
      `KANDEV_AGENTCTL_MCP_PORT=${CONTAINER_MCP_PORT}`,
      `LOG_LEVEL=${input.logLevel}`,
      ...(input.toolCallTimeoutMs === undefined
        ? []
        : [`KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS=${input.toolCallTimeoutMs}`]),
      ...tls.env,
      ...runAs.env,
    ],
    ExposedPorts: { [grpc]: {}, [mcp]: {} },
    HostConfig: {
      PortBindings: { [grpc]: publish, [mcp]: publish },
      Binds: [`${input.tokenFile}:${CONTAINER_TOKEN_PATH}:ro`, ...tls.binds, ...workspaceBinds(input.workspace)],
      // Removal is the executor's job (it reports the exit first); no restart behind its back.
      RestartPolicy: { Name: 'no' },
      ...(input.network === undefined ? {} : { NetworkMode: input.network }),
    },
  };
}

export interface PublishedPorts {
  grpcPort: number;
  mcpPort: number;
}

function hostPort(info: ContainerInspectInfo, containerPort: number): number | undefined {
  const bindings = info.NetworkSettings.Ports[`${containerPort}/tcp`] as { HostPort?: string }[] | null | undefined;
  const port = Number(bindings?.[0]?.HostPort);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}

/** The host ports the engine published agentctl's two ports on, once it has. */
export function publishedPorts(info: ContainerInspectInfo): PublishedPorts | undefined {
  const grpcPort = hostPort(info, CONTAINER_GRPC_PORT);
  const mcpPort = hostPort(info, CONTAINER_MCP_PORT);
  return grpcPort === undefined || mcpPort === undefined ? undefined : { grpcPort, mcpPort };
}
