import type { PermissionPolicy, SessionEventBody } from '@kandev/protocol';
import type { Logger } from '../logger';
import type { ConnectAcp, McpServerSpec } from './acp-connection';
import type { AgentProcess, AgentSpawnSpec } from './agent-process';
import type { AgentToolView } from './agent-tool-view';
import type { PermissionAsker } from './permission-responder';

// What an AgentRunner is built from: the session's agent as launched, and its collaborators.

export interface AgentLaunchSpec {
  readonly sessionId: string;
  readonly taskId: string;
  /** How the agent's session/request_permission is answered (the profile's permission_policy). */
  readonly permissionPolicy: PermissionPolicy;
  /** cwd is absolute; it is also the ACP session's cwd. */
  readonly process: AgentSpawnSpec;
  /** The session's MCP server with its bearer, or null (profile without MCP). */
  readonly mcpServer: McpServerSpec | null;
  readonly systemPrompt: string;
  readonly resumeAcpSessionId: string | null;
}

export interface AgentRunnerDeps {
  readonly spawn: (spec: AgentSpawnSpec) => AgentProcess;
  readonly connect: ConnectAcp;
  /** Events of this session, in order. */
  readonly publish: (event: SessionEventBody) => void;
  readonly log: Logger;
  readonly now: () => Date;
  readonly startTimeoutMs: number;
  readonly stopGraceMs: number;
  /** Answers permission requests under policy ask (absent: they are rejected). */
  readonly permissions?: PermissionAsker;
  /** The session's tools and who listed them (absent: as for an agent without MCP). */
  readonly tools?: AgentToolView;
  /** How long an agent given the MCP server may take to list its tools before a notice says it has none. */
  readonly mcpConnectTimeoutMs?: number;
  /** How long an agent may take to re-list after list_changed before its session is reopened for it. */
  readonly toolsRefreshGraceMs?: number;
}

export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_TOOLS_REFRESH_GRACE_MS = 2_000;
