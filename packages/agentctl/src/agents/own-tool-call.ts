import type { ToolCallUpdate } from './acp-connection';
import type { KnownToolCall } from './turn-output';

// Pure: whether a permission request is about one of the session's own MCP tools. Those need no click
// under any policy: discovery is scoped to the session and the backend checks every call (what the
// tool may touch, whose task it is), so asking would only repeat that check in front of an operator.

/**
 * Only structured fields count (an agent's MCP server and tool name for the call, which the model does
 * not write), never the title: a shell command could be titled like a tool. The tool must be in the
 * session's current list; a removed one is refused when called anyway.
 */
export function isOwnToolCall(
  request: Pick<ToolCallUpdate, 'mcpTool'>,
  known: KnownToolCall | undefined,
  mcpServerName: string | null,
  toolNames: readonly string[],
): boolean {
  const tool = request.mcpTool ?? known?.mcpTool;
  return mcpServerName !== null && tool !== undefined && tool.server === mcpServerName && toolNames.includes(tool.tool);
}
