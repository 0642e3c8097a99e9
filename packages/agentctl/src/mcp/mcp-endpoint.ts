import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { RuntimeSession } from '../sessions/runtime-session';
import type { SessionRegistry } from '../sessions/session-registry';
import { sendHttpError } from './http-error';
import { McpConnection } from './mcp-connection';
import { createSessionMcpServer } from './session-mcp-server';
import { authenticateSession } from './session-auth';
import type { ToolCallForwarder } from './tool-call-forwarder';

/** Largest JSON body accepted on the MCP endpoint. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

export interface McpEndpointDeps {
  readonly registry: SessionRegistry;
  readonly forwarder: ToolCallForwarder;
  readonly log: Logger;
  /** Counts and times tools/list. */
  readonly metrics?: Pick<AgentctlMetrics, 'toolsList'>;
}

/**
 * `POST|GET|DELETE /sessions/:sessionId/mcp`. Authenticates against the URL's session, then routes a
 * request with `mcp-session-id` to that session's own connection (a connection of another session is
 * never served: 404), or opens a new connection for an initialize request.
 */
export function createMcpEndpoint(deps: McpEndpointDeps): RequestHandler {
  return async (req, res) => {
    const session = authenticateSession(deps.registry, req, res);
    if (session === undefined) return;
    const body: unknown = req.body;
    const mcpSessionId = req.header('mcp-session-id');
    if (mcpSessionId !== undefined) {
      const connection = session.connection(mcpSessionId);
      if (!(connection instanceof McpConnection)) {
        sendHttpError(res, 404, 'unknown MCP session for this endpoint; initialize a new one');
        return;
      }
      await connection.handle(req, res, body);
      return;
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      await openConnection(deps, session, req, res, body);
      return;
    }
    sendHttpError(res, 400, 'missing mcp-session-id header: send an initialize request first');
  };
}

async function openConnection(
  deps: McpEndpointDeps,
  session: RuntimeSession,
  req: Request,
  res: Response,
  body: unknown,
): Promise<void> {
  const log = deps.log.child({ sessionId: session.sessionId });
  const authenticatedWith = session.mcpTokenHash;
  const server = createSessionMcpServer(session, deps.forwarder, log, deps.metrics);
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
    onsessioninitialized: (id) => {
      const connection = new McpConnection(id, server, transport);
      // The token was replaced or the session stopped while this client initialised: do not attach.
      if (session.mcpTokenHash !== authenticatedWith || deps.registry.find(session.sessionId) !== session) {
        void connection.close();
        return;
      }
      session.addConnection(connection);
      log.debug({ mcpSessionId: id }, 'MCP connection opened');
    },
  });
  server.onclose = () => {
    if (transport.sessionId === undefined) return;
    session.removeConnection(transport.sessionId);
    log.debug({ mcpSessionId: transport.sessionId }, 'MCP connection closed');
  };
  server.onerror = (err) => log.warn({ err }, 'MCP connection error');
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
  if (transport.sessionId === undefined) await server.close();
}
