/** A validated tool call, with the identity agentctl binds from the session (never from arguments). */
export interface ToolCall {
  readonly sessionId: string;
  readonly taskId: string;
  readonly workspaceId: string;
  /** The session's config revision when the call was made. */
  readonly revision: number;
  readonly tool: string;
  /** Already validated against the tool's strict input schema. */
  readonly arguments: Record<string, unknown>;
}

/** What goes back to the agent: an MCP tool result (`isError` for failures the model can act on). */
// A type alias (not an interface) so it stays assignable to the SDK's open CallToolResult.
export type ToolCallResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

export interface ForwardOptions {
  /** Aborted when the agent cancels the request or its connection closes: stop waiting. */
  readonly signal?: AbortSignal;
  /** The backend is still working on the call (relayed to the agent as MCP progress). */
  readonly onProgress?: (message: string) => void;
}

/**
 * Where validated tool calls go: the Attach hub (the backend's stream), or NoBackendForwarder.
 * Failures the model can act on resolve as `isError` results; a thrown AppError becomes one too.
 */
export interface ToolCallForwarder {
  forward(call: ToolCall, options?: ForwardOptions): Promise<ToolCallResult>;
}
