import { mcpPathFor } from '@kandev/protocol';
import type { McpServerSpec } from './acp-connection';

/** The name the session's MCP server has in the agent (its tools stay `*_kandev`). */
export const AGENT_MCP_SERVER_NAME = 'kandev';

const WILDCARD_OR_LOOPBACK_V4 = new Set(['', '0.0.0.0', '127.0.0.1', 'localhost']);
const WILDCARD_OR_LOOPBACK_V6 = new Set(['::', '[::]', '::1', '[::1]']);

/**
 * The host an agent uses to reach agentctl's MCP listener. The agent runs next to agentctl, so a
 * wildcard or loopback bind is reached over loopback (127.0.0.1 and [::1] pass the Host check by
 * default). A specific other address is used as is; it must then be in KANDEV_AGENTCTL_ALLOWED_HOSTS.
 */
export function agentMcpHost(bindHost: string): string {
  const host = bindHost.trim().toLowerCase();
  if (WILDCARD_OR_LOOPBACK_V4.has(host)) return '127.0.0.1';
  if (WILDCARD_OR_LOOPBACK_V6.has(host)) return host === '::' || host === '[::]' ? '127.0.0.1' : '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The session's MCP server as injected into session/new or session/load, bearer included. */
export function agentMcpServer(bindHost: string, port: number, sessionId: string, mcpToken: string): McpServerSpec {
  return {
    name: AGENT_MCP_SERVER_NAME,
    url: `http://${agentMcpHost(bindHost)}:${port}${mcpPathFor(sessionId)}`,
    headers: [{ name: 'Authorization', value: `Bearer ${mcpToken}` }],
  };
}
