import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import { hostAllowed, hostCheck, LOCAL_HOST_NAMES } from '../lifecycle/http-listener';
import type { Logger } from '../logger';
import { JSONRPC_PARSE_ERROR, sendHttpError } from './http-error';
import { createMcpEndpoint, type McpEndpoint, MCP_MAX_BODY_BYTES, type McpEndpointDeps } from './mcp-endpoint';

export const MCP_ROUTE = '/sessions/:sessionId/mcp';
/** The route's exact form (a GET there skips Express); its case and trailing-slash variants go through Express. */
const EXACT_MCP_PATH = /^\/sessions\/([^/?#]+)\/mcp(?:\?.*)?$/;

const INVALID_PATH_ENCODING = 'the request path is not valid percent-encoding';

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
    if (err instanceof URIError) return sendHttpError(res, 400, INVALID_PATH_ENCODING);
    const type = typeof err === 'object' && err !== null ? (err as BodyParserError).type : undefined;
    if (type === 'entity.too.large') return sendHttpError(res, 413, `request body over ${MCP_MAX_BODY_BYTES} bytes`);
    if (type === 'entity.parse.failed')
      return sendHttpError(res, 400, 'request body is not valid JSON', JSONRPC_PARSE_ERROR);
    log.error({ err }, 'MCP request failed');
    sendHttpError(res, 500, 'internal error');
  };
}

/**
 * A GET on the exact MCP route (an SSE stream, held for as long as the client stays connected) served
 * without Express, with the same host check, errors and endpoint. Express gives every request and
 * response it handles a hidden class of its own (it swaps their prototypes), and a held stream keeps
 * both alive: about 2 KB of heap per idle connection, and more in the old-space pages they fragment.
 * Returns false when the request is not such a GET (Express serves it).
 */
function serveStreamDirectly(
  direct: { endpoint: McpEndpoint; allowedHosts: readonly string[]; log: Logger },
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const match = req.method === 'GET' && req.url !== undefined ? EXACT_MCP_PATH.exec(req.url) : null;
  if (match === null) return false;
  if (!hostAllowed(req, res, direct.allowedHosts)) return true;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(match[1] ?? '');
  } catch {
    sendHttpError(res, 400, INVALID_PATH_ENCODING);
    return true;
  }
  direct.endpoint(req, res, sessionId, undefined).catch((err: unknown) => {
    direct.log.error({ err }, 'MCP request failed');
    sendHttpError(res, 500, 'internal error');
  });
  return true;
}

/** The MCP HTTP app: liveness and readiness, DNS-rebinding protection, a 1 MB JSON limit and the per-session endpoint. */
export function createMcpApp(deps: McpAppDeps): RequestListener {
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
  const route = (req: express.Request, res: express.Response) => {
    const { sessionId } = req.params;
    return endpoint(req, res, typeof sessionId === 'string' ? sessionId : '', req.body as unknown);
  };
  app.post(MCP_ROUTE, express.json({ limit: MCP_MAX_BODY_BYTES }), route);
  app.get(MCP_ROUTE, route);
  app.delete(MCP_ROUTE, route);
  app.use((_req, res) => sendHttpError(res, 404, 'not found'));
  app.use(errorHandler(deps.log));
  const direct = { endpoint, allowedHosts: [...LOCAL_HOST_NAMES, ...deps.allowedHosts], log: deps.log };
  return (req, res) => {
    if (!serveStreamDirectly(direct, req, res)) app(req, res);
  };
}
