// Pure: options for an agent's own ACP extension, sent in `_meta` of session/new, load and resume. An
// agent advertises an extension by its key in agentCapabilities._meta; only then is it used.

/**
 * Claude Code (`claudeCode`): the session's own MCP tools need no permission click (they are scoped to
 * the session and the backend checks every call), and no prompt suggestions are made (extra model calls
 * predicting the user's next message, which kandev never shows).
 */
function claudeCodeOptions(mcpServerName: string | null): Record<string, unknown> {
  const allowedTools = mcpServerName === null ? {} : { allowedTools: [`mcp__${mcpServerName}`] };
  return { options: { ...allowedTools, promptSuggestions: false } };
}

/** `_meta` for the session requests; mcpServerName: the session's MCP server, null without one. */
export function extensionMeta(extensions: readonly string[], mcpServerName: string | null): Record<string, unknown> {
  return extensions.includes('claudeCode') ? { claudeCode: claudeCodeOptions(mcpServerName) } : {};
}
