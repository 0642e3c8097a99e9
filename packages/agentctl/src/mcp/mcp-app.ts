import express, { type ErrorRequestHandler, type Express } from 'express';
import { hostCheck } from '../lifecycle/http-listener';
import type { Logger } from '../logger';
import { JSONRPC_PARSE_ERROR, sendHttpError } from './http-error';
import { createMcpEndpoint, MCP_MAX_BODY_BYTES, type McpEndpointDeps } from './mcp-endpoint';

export const MCP_ROUTE = '/sessions/:sessionId/mcp';

export interface McpAppDeps extends McpEndpointDeps {
  readonly allowedHosts: readonly string[];
  /** GET /readyz: true while gRPC serves (after start-up, before shutdown); default always ready. */
  readonly isReady?: () => boolean;
}

interface BodyParserError {
  type?: unknown;
}

function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    // The router could not percent-decode the session id in the path (e.g. /sessions/%ZZ/mcp).
    if (err instanceof URIError) return sendHttpError(res, 400, 'the request path is not valid percent-encoding');
    const type = typeof err === 'object' && err !== null ? (err as BodyParserError).type : undefined;
    if (type === 'entity.too.large') return sendHttpError(res, 413, `request body over ${MCP_MAX_BODY_BYTES} bytes`);
    if (type === 'entity.parse.failed')
      return sendHttpError(res, 400, 'request body is not valid JSON', JSONRPC_PARSE_ERROR);
    log.error({ err }, 'MCP request failed');
    sendHttpError(res, 500, 'internal error');
  };
}

/** The MCP HTTP app: liveness and readiness, DNS-rebinding protection, a 1 MB JSON limit and the per-session endpoint. */
export function createMcpApp(deps: McpAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Open like /healthz (probes send no token); status words only.
  app.get('/readyz', (_req, res) => {
    const ready = deps.isReady?.() ?? true;
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready' });
  });
  app.use(hostCheck(deps.allowedHosts));
  const endpoint = createMcpEndpoint(deps);
  app.post(MCP_ROUTE, express.json({ limit: MCP_MAX_BODY_BYTES }), endpoint);
  app.get(MCP_ROUTE, endpoint);
  app.delete(MCP_ROUTE, endpoint);
  app.use((_req, res) => sendHttpError(res, 404, 'not found'));
  app.use(errorHandler(deps.log));
  return app;
}
