/** A validated tool call, with the identity agentctl binds from the session (never from arguments). */
export interface ToolCall {
  readonly sessionId: string;
  readonly taskId: string;
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

/**
 * Where validated tool calls go. The backend channel (the Attach stream) implements this in a later
 * issue; until then agentctl uses NoBackendForwarder.
 */
export interface ToolCallForwarder {
  forward(call: ToolCall, signal?: AbortSignal): Promise<ToolCallResult>;
}
