import type { AgentctlTls } from '@kandev/protocol';

/** How the backend reaches one running agentctl. */
export interface AgentctlEndpoint {
  /** host:port of the gRPC control server. */
  grpcAddress: string;
  /** http://host:port of the MCP listener; a session's endpoint is this + mcpPathFor(id). */
  mcpBaseUrl: string;
  /** Bearer for every AgentCtl call. */
  controlToken: string;
  /** The agentctl serves TLS: verify it with these (plaintext gRPC when absent: local, or `insecure: true`). */
  tls?: AgentctlTls;
  /**
   * Set when only one backend replica reaches this agentctl (its own local one, on a database replicas
   * share): that replica's id. Its sessions record it; the others hand their work for them to it.
   */
  replica?: string;
}

/** An agentctl's identity among every replica's: its address, qualified by its replica when only that one reaches it. */
export function agentctlKey(endpoint: Pick<AgentctlEndpoint, 'grpcAddress' | 'replica'>): string {
  return endpoint.replica === undefined ? endpoint.grpcAddress : `${endpoint.grpcAddress}@${endpoint.replica}`;
}

export interface AgentctlStatus {
  running: boolean;
  pid: number | null;
  grpcAddress: string | null;
  mcpBaseUrl: string | null;
}

/** The executor kinds; a named profile picks one of them with its own options. */
export const EXECUTOR_KINDS = ['local', 'docker', 'remote'] as const;
/** `kubernetes` exists only as a named profile (KANDEV_EXECUTOR_PROFILES), never in KANDEV_EXECUTORS. */
export type ExecutorKind = (typeof EXECUTOR_KINDS)[number] | 'kubernetes';

/** Kinds that run one agentctl per session (its loss is that session's loss, not every session's). */
export function isPerSessionKind(kind: string): boolean {
  return kind === 'docker' || kind === 'kubernetes';
}

/** What a session row says about where it runs. */
export interface SessionPlacement {
  id: string;
  /** The executor (or profile) name it was launched with. */
  executor: string;
  /** The gRPC address of the agentctl it was last started on (null: never started). */
  agentctlAddress: string | null;
  /** The replica whose own local agentctl that is (AgentctlEndpoint.replica); null or absent: any replica reaches it. */
  agentctlReplica?: string | null;
}

/** Whether two placements name the same agentctl: its address, and the home it is local to (if any). */
export function onSameAgentctl(
  a: Pick<SessionPlacement, 'agentctlAddress' | 'agentctlReplica'>,
  b: Pick<SessionPlacement, 'agentctlAddress' | 'agentctlReplica'>,
): boolean {
  return a.agentctlAddress === b.agentctlAddress && (a.agentctlReplica ?? null) === (b.agentctlReplica ?? null);
}

/** Told when an agentctl comes up or goes, and when one dies under its session (docker). */
export interface AgentctlEvents {
  /** `slot` names the agentctl's place (local, a remote, a session's container); a new endpoint replaces the slot's old one. */
  up(slot: string, endpoint: AgentctlEndpoint): void;
  down(slot: string, endpoint: AgentctlEndpoint): void;
  /** The agentctl a session ran on died without being asked to stop. */
  lost(session: Pick<SessionPlacement, 'id' | 'agentctlAddress' | 'agentctlReplica'>, reason: string): void;
}

/** The task workspace a session works in, as a container executor mounts it. */
export interface WorkspaceMount {
  /** Host path of the task's workspace (mounted at the executor's fixed path). */
  hostPath: string;
  /** Source repositories' git dirs its worktrees point at (mounted at the same absolute paths). */
  gitDirs: readonly string[];
}

/** One executor backend (local process, docker containers, a remote agentctl), as the registry drives it. */
export interface ExecutorBackend {
  readonly kind: ExecutorKind;
  /** remote: where its agentctl sees the backend's workspaces dir (shared storage), when it does. */
  readonly sharedWorkspacesDir?: string;
  /** The agentctl for a session about to start (launch or resume); docker starts the session's container. */
  acquire(sessionId: string, workspace?: WorkspaceMount): Promise<AgentctlEndpoint>;
  /**
   * The shared agentctl a new session would start on, when it is up now: known without starting or
   * asking anything (local). Absent or undefined: only `acquire` knows (containers, a remote's check).
   */
  placementNow?(): AgentctlEndpoint | undefined;
  /** The live agentctl at a recorded gRPC address, when this backend runs it. */
  endpointAt(grpcAddress: string): AgentctlEndpoint | undefined;
  /** Every agentctl this backend has up now. */
  endpoints(): AgentctlEndpoint[];
  /** The session no longer needs its agentctl (stopped): docker removes the session's container. */
  release(session: SessionPlacement): Promise<void>;
  /**
   * At boot: find what an earlier backend left (adopt the local agentctl, reattach or remove
   * containers, reach the remote) and announce what is up.
   */
  recover(isLiveSession: (sessionId: string) => Promise<boolean>): Promise<void>;
  status(): AgentctlStatus;
  /** The Attach stream to one of its agentctls ended: check whether that agentctl is gone (local: restart it). */
  noticeDetached?(endpoint: AgentctlEndpoint): void;
  /** Graceful backend stop: stops (local) or removes (docker) what it started; a remote is left alone. */
  stop(): Promise<void>;
}
