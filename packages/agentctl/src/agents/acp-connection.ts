// The seam between agentctl and an ACP agent. Only acp-client.ts implements it with the SDK (an ESM
// package jest cannot load in-process); everything else, and every unit test, sees this interface.
import type { PermissionOptionInfo, ToolCallNoticeStatus } from '@kandev/protocol';
import type { Readable, Writable } from 'node:stream';
import type { PermissionDecision } from './permission-policy';

/** What the agent advertised in `initialize` that agentctl acts on. */
export interface AgentCapabilities {
  readonly loadSession: boolean;
  readonly mcpHttp: boolean;
}

/** An HTTP MCP server for session/new or session/load (headers may carry a bearer: never log them). */
export interface McpServerSpec {
  readonly name: string;
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
}

export interface NewSessionParams {
  readonly cwd: string;
  readonly mcpServers: readonly McpServerSpec[];
  /** Sent as `_meta.systemPrompt`. */
  readonly systemPrompt: string;
}

export interface LoadSessionParams {
  readonly sessionId: string;
  readonly cwd: string;
  readonly mcpServers: readonly McpServerSpec[];
  /** Also sent as `_meta.systemPrompt`: a resume may come with a new one (e.g. another question tool). */
  readonly systemPrompt: string;
}

/**
 * A `session/update` agentctl forwards; every other kind (thoughts, plans, modes, ...) is dropped when
 * parsed. A tool call's fields are undefined when the update does not carry them.
 */
export type AgentUpdate =
  | { readonly kind: 'message_chunk'; readonly text: string }
  | {
      readonly kind: 'tool_call';
      readonly toolCallId: string;
      readonly title?: string;
      readonly status?: ToolCallNoticeStatus;
      readonly inputJson?: string;
      readonly outputText?: string;
    };

/** An agent's session/request_permission, as the runner sees it. */
export interface AgentPermissionRequest {
  readonly toolCallId: string;
  readonly title: string | null;
  /** The tool call's ACP kind (read, edit, execute, ...). */
  readonly toolKind: string | null;
  readonly options: readonly PermissionOptionInfo[];
}

/** What the connection reports back while it is open. */
export interface AcpEvents {
  onUpdate(acpSessionId: string, update: AgentUpdate): void;
  /** The agent asks before a tool call; the answer goes back as the request's result. */
  onPermission(acpSessionId: string, request: AgentPermissionRequest): Promise<PermissionDecision>;
}

/** The agent's side of the stdio is gone; the process exit says why. */
export class AcpConnectionClosedError extends Error {
  constructor(method: string, options?: ErrorOptions) {
    super(`the agent closed its ACP connection during ${method}`, options);
    this.name = 'AcpConnectionClosedError';
  }
}

/** An ACP client connection to one agent process. Requests reject with the agent's error message. */
export interface AcpConnection {
  initialize(): Promise<AgentCapabilities>;
  newSession(params: NewSessionParams): Promise<{ sessionId: string }>;
  loadSession(params: LoadSessionParams): Promise<void>;
  /** Resolves with the ACP stop reason once the turn ended. */
  prompt(acpSessionId: string, text: string): Promise<{ stopReason: string }>;
  cancel(acpSessionId: string): Promise<void>;
  /** Resolves when the connection closed (the agent's stdout ended, or close()). */
  readonly closed: Promise<void>;
  close(): void;
}

export type ConnectAcp = (
  stdio: { readonly stdin: Writable; readonly stdout: Readable },
  events: AcpEvents,
) => AcpConnection;
