// The seam between agentctl and an ACP agent. Only acp-client.ts implements it with the SDK (an ESM
// package jest cannot load in-process); everything else, and every unit test, sees this interface.
import type { FileDiff, PermissionOptionInfo, PlanEntry, ToolCallNoticeStatus } from '@kandev/protocol';
import type { Readable, Writable } from 'node:stream';
import type { PermissionDecision } from './permission-policy';

/** What the agent advertised in `initialize` that agentctl acts on. */
export interface AgentCapabilities {
  readonly loadSession: boolean;
  readonly mcpHttp: boolean;
  /** sessionCapabilities.systemPrompt: the ACP `systemPrompt` field, in append mode (the spec's default). */
  readonly systemPrompt: boolean;
  /** sessionCapabilities.close and .resume: an ACP session can be reopened in the same process. */
  readonly closeSession: boolean;
  readonly resumeSession: boolean;
  /** The keys of agentCapabilities._meta: an agent's own extensions (e.g. `claudeCode`). */
  readonly extensions: readonly string[];
}

/** An ACP session mode the agent offers (session/new, load and resume answer them). */
export interface SessionMode {
  readonly id: string;
  readonly name: string;
}

/** The agent's session modes; null when it offers none. */
export interface SessionModes {
  readonly currentModeId: string | null;
  readonly available: readonly SessionMode[];
}

/** An HTTP MCP server for session/new or session/load (headers may carry a bearer: never log them). */
export interface McpServerSpec {
  readonly name: string;
  readonly url: string;
  readonly headers: readonly { readonly name: string; readonly value: string }[];
}

/** What session/new, session/load and session/resume carry. */
export interface SessionSetupParams {
  readonly cwd: string;
  readonly mcpServers: readonly McpServerSpec[];
  /** Sent as the ACP `systemPrompt` in append mode; null: not sent (the agent does not support it). */
  readonly systemPrompt: string | null;
  /** `_meta` of the request: options for an agent's own extension (see agent-extensions.ts). */
  readonly meta: Readonly<Record<string, unknown>>;
}

export interface NewSessionResult {
  readonly sessionId: string;
  readonly modes: SessionModes | null;
}

/**
 * A `session/update` agentctl forwards (thoughts, usage, commands, modes and unknown kinds are dropped
 * when parsed). A tool call's fields are undefined when the update does not carry them.
 */
export type AgentUpdate =
  | { readonly kind: 'message_chunk'; readonly text: string }
  | ToolCallUpdate
  | { readonly kind: 'plan'; readonly entries: readonly PlanEntry[] };

export interface ToolCallUpdate {
  readonly kind: 'tool_call';
  readonly toolCallId: string;
  readonly title?: string;
  readonly status?: ToolCallNoticeStatus;
  /** The ACP tool kind (read, edit, execute, ...). */
  readonly toolKind?: string;
  readonly inputJson?: string;
  /** Replaces what the call produced so far (its text content, else its raw output). */
  readonly outputText?: string;
  /** Appended to the call's output (streamed terminal output). */
  readonly outputAppend?: string;
  readonly diffs?: readonly FileDiff[];
  /** The MCP server and tool the call goes to, when the agent says so in a structured field. */
  readonly mcpTool?: { readonly server: string; readonly tool: string };
}

/** An agent's session/request_permission, as the runner sees it. */
export interface AgentPermissionRequest {
  readonly toolCallId: string;
  readonly title: string | null;
  /** The tool call's ACP kind (read, edit, execute, ...). */
  readonly toolKind: string | null;
  readonly options: readonly PermissionOptionInfo[];
  /** The tool call as the request describes it (merged into the turn's record of that call). */
  readonly toolCall: ToolCallUpdate;
}

/** What the connection reports back while it is open. */
export interface AcpEvents {
  onUpdate(acpSessionId: string, update: AgentUpdate): void;
  /**
   * The agent asks before a tool call; the answer goes back as the request's result. `withdrawn` aborts
   * when the agent takes the request back (it no longer waits for an answer).
   */
  onPermission(
    acpSessionId: string,
    request: AgentPermissionRequest,
    withdrawn: AbortSignal,
  ): Promise<PermissionDecision>;
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
  newSession(params: SessionSetupParams): Promise<NewSessionResult>;
  /** Continues an ACP session; it replays its history as updates before answering. */
  loadSession(sessionId: string, params: SessionSetupParams): Promise<SessionModes | null>;
  /** Reopens an ACP session without replaying it (sessionCapabilities.resume). */
  resumeSession(sessionId: string, params: SessionSetupParams): Promise<SessionModes | null>;
  /** Closes an ACP session in the agent (sessionCapabilities.close); the process stays. */
  closeSession(sessionId: string): Promise<void>;
  setMode(sessionId: string, modeId: string): Promise<void>;
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
