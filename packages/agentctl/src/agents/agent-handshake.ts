import type { Logger } from '../logger';
import type { AcpConnection, McpServerSpec } from './acp-connection';

export interface HandshakeRequest {
  /** Absolute. */
  readonly cwd: string;
  /** The session's MCP server, or none when the agent profile does not take MCP servers. */
  readonly mcpServers: readonly McpServerSpec[];
  readonly systemPrompt: string;
  /** Continue this ACP session (resume) when the agent can load sessions. */
  readonly resumeAcpSessionId: string | null;
}

export interface HandshakeResult {
  readonly acpSessionId: string;
  /** The ACP session was continued with session/load. */
  readonly loaded: boolean;
}

/**
 * ACP start-up: initialize, then session/load when a resume id is given and the agent advertised
 * loadSession, else session/new. An agent that does not advertise HTTP MCP servers still gets the
 * session's server (some agents support more than they advertise); a warning says so.
 */
export async function runHandshake(
  conn: AcpConnection,
  request: HandshakeRequest,
  log: Logger,
): Promise<HandshakeResult> {
  const capabilities = await conn.initialize();
  const { cwd, mcpServers, systemPrompt, resumeAcpSessionId } = request;
  if (mcpServers.length > 0 && !capabilities.mcpHttp) {
    log.warn('the agent does not advertise HTTP MCP servers; offering the session MCP server anyway');
  }
  if (resumeAcpSessionId !== null) {
    if (capabilities.loadSession) {
      await conn.loadSession({ sessionId: resumeAcpSessionId, cwd, mcpServers, systemPrompt });
      return { acpSessionId: resumeAcpSessionId, loaded: true };
    }
    log.info({ resumeAcpSessionId }, 'the agent cannot load sessions; starting a new ACP session');
  }
  const { sessionId } = await conn.newSession({ cwd, mcpServers, systemPrompt });
  return { acpSessionId: sessionId, loaded: false };
}
