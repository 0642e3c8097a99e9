import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { RuntimeSession } from '../sessions/runtime-session';
import type { SessionRegistry } from '../sessions/session-registry';
import { type ConnectionLimiter, type ConnectionSlot, type McpLimits } from './connection-limits';
import { JSONRPC_INVALID_REQUEST, sendHttpError } from './http-error';
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
  readonly limiter: ConnectionLimiter;
  readonly idleTimeoutMs: McpLimits['idleTimeoutMs'];
  /** Counts and times tools/list; counts connections refused at a cap. */
  readonly metrics?: Pick<AgentctlMetrics, 'toolsList' | 'connectionRefused'>;
}

/**
 * Serves one request of `/sessions/:sessionId/mcp`; `sessionId` is the path's, decoded, and `body` the
 * parsed JSON of a POST (undefined otherwise).
 */
export type McpEndpoint = (
  req: IncomingMessage,
  res: ServerResponse,
  sessionId: string,
  body: unknown,
) => Promise<void>;

/**
 * `POST|GET|DELETE /sessions/:sessionId/mcp`. Authenticates against the URL's session, then routes a
 * request with `mcp-session-id` to that session's own connection (a connection of another session is
 * never served: 404), or opens a new connection for an initialize request. Plain node request and
 * response: a GET stream is served without Express (mcp-app.ts).
 */
export function createMcpEndpoint(deps: McpEndpointDeps): McpEndpoint {
  return async (req, res, sessionId, body) => {
    const session = authenticateSession(deps.registry, sessionId, req, res);
    if (session === undefined) return;
    // JSON-RPC 2.0: an empty batch is itself an invalid request (the transport would answer 202).
    if (req.method === 'POST' && Array.isArray(body) && body.length === 0) {
      sendHttpError(res, 400, 'invalid request: an empty JSON-RPC batch', JSONRPC_INVALID_REQUEST);
      return;
    }
    const mcpSessionId = req.headers['mcp-session-id'];
    if (typeof mcpSessionId === 'string') {
      const connection = session.connection(mcpSessionId);
      if (!(connection instanceof McpConnection)) {
        sendHttpError(res, 404, 'unknown MCP session for this endpoint; initialize a new one');
        return;
      }
      await connection.handle(req, res, body);
      return;
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      const slot = deps.limiter.acquire(session.sessionId);
      if ('refused' in slot) {
        deps.metrics?.connectionRefused();
        sendHttpError(res, 429, slot.refused);
        return;
      }
      await openConnection(deps, session, slot, { req, res, body });
      return;
    }
    sendHttpError(res, 400, 'missing mcp-session-id header: send an initialize request first');
  };
}

interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly body: unknown;
}

/**
 * Holds `slot` until the connection closes, however it closes (DELETE, idle, stop, refused, failed).
 * The closures below live as long as the connection: they capture neither the initialize request nor
 * a child logger (both were kilobytes per idle connection), only what they need.
 */
async function openConnection(
  deps: McpEndpointDeps,
  session: RuntimeSession,
  slot: ConnectionSlot,
  { req, res, body }: Exchange,
): Promise<void> {
  const { log } = deps;
  const sessionId = session.sessionId;
  const authenticatedWith = session.mcpTokenHash;
  const server = createSessionMcpServer(session, deps.forwarder, log, deps.metrics);
  let connection: McpConnection | undefined;
  // The initialize answer holds the idle clock like any open response; dropped once it is tracked.
  let initializeResponse: ServerResponse | undefined = res;
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
    onsessioninitialized: (id) => {
      connection = new McpConnection(id, server, transport, {
        toolSet: () => session.toolSet,
        onListed: () => session.recordListing(id),
        idle: {
          timeoutMs: deps.idleTimeoutMs,
          onIdle: () => log.debug({ sessionId, mcpSessionId: id }, 'MCP connection idle; closing it'),
        },
        metrics: deps.metrics,
      });
      // The token was replaced or the session stopped while this client initialised: do not attach.
      if (session.mcpTokenHash !== authenticatedWith || deps.registry.find(sessionId) !== session) {
        void connection.close();
        return;
      }
      if (initializeResponse !== undefined) connection.track(initializeResponse);
      initializeResponse = undefined;
      session.addConnection(connection);
      log.debug({ sessionId, mcpSessionId: id }, 'MCP connection opened');
    },
  });
  server.onclose = () => {
    slot.release();
    connection?.markEnded();
    if (transport.sessionId === undefined) return;
    // Only this connection's own entry (a stopped session's list was already detached).
    if (session.connection(transport.sessionId) === connection) session.removeConnection(transport.sessionId);
    log.debug({ sessionId, mcpSessionId: transport.sessionId }, 'MCP connection closed');
  };
  server.onerror = (err) => log.warn({ err, sessionId }, 'MCP connection error');
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } finally {
    initializeResponse = undefined;
    if (transport.sessionId === undefined) {
      slot.release();
      await server.close();
    }
  }
}
