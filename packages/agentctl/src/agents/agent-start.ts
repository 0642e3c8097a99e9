import type { Logger } from '../logger';
import type { AcpConnection } from './acp-connection';
import { type HandshakeNotice, type HandshakeRequest, type HandshakeResult, runHandshake } from './agent-handshake';
import type { AgentProcess } from './agent-process';
import type { AgentToolView } from './agent-tool-view';
import { withTimeout } from './with-timeout';

// From a spawned agent process to an open ACP session: the handshake, bounded, then the check that an
// agent given the session's MCP server has listed its tools (agents connect while they set a session
// up; one that did not, e.g. an untrusted folder, would otherwise run silently without kandev tools).

/** The ACP session once the handshake is done. */
export interface OpenSession {
  readonly connection: AcpConnection;
  readonly proc: AgentProcess;
  readonly handshake: HandshakeResult;
  readonly acpSessionId: string;
  /** The tool names the agent had after its last listing. */
  toolNames: readonly string[];
  /** The system prompt still has to lead the next prompt (the agent cannot take it otherwise). */
  preamblePending: boolean;
  /** The agent listed its MCP tools at least once since it was spawned (see listingMark). */
  mcpListed: boolean;
  /** The session's listing count when the agent was spawned. */
  readonly listingMark: number;
}

export interface AgentStartDeps {
  readonly log: Logger;
  readonly startTimeoutMs: number;
  readonly tools: AgentToolView;
  readonly mcpConnectTimeoutMs: number;
}

export async function openAgentSession(
  connection: AcpConnection,
  proc: AgentProcess,
  request: HandshakeRequest,
  listingMark: number,
  deps: AgentStartDeps,
): Promise<{ session: OpenSession; notices: HandshakeNotice[] }> {
  const { startTimeoutMs, mcpConnectTimeoutMs } = deps;
  const result = await withTimeout(
    runHandshake(connection, request, deps.log),
    startTimeoutMs,
    `no answer within ${startTimeoutMs} ms`,
  );
  const offered = request.mcpServers.length > 0;
  const mcpListed = offered && (await deps.tools.listedSince(listingMark, mcpConnectTimeoutMs));
  const notices = [...result.notices];
  if (offered && !mcpListed) {
    notices.push({
      code: 'mcp_not_connected',
      message: `the agent did not list its MCP tools within ${mcpConnectTimeoutMs / 1000} s of starting: it has no kandev tools (is its MCP server allowed and its workspace trusted?)`,
    });
  }
  const session: OpenSession = {
    connection,
    proc,
    handshake: result,
    acpSessionId: result.acpSessionId,
    toolNames: deps.tools.toolNames(),
    preamblePending: result.systemPromptDelivery === 'first_prompt',
    mcpListed,
    listingMark,
  };
  return { session, notices };
}
