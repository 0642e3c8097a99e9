import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import { hostAllowed, hostCheck, LOCAL_HOST_NAMES } from '../lifecycle/http-listener';
import type { Logger } from '../logger';
import { JSONRPC_PARSE_ERROR, sendHttpError } from './http-error';
import { createMcpEndpoint, type McpEndpoint, MCP_MAX_BODY_BYTES, type McpEndpointDeps } from './mcp-endpoint';

export const MCP_ROUTE = '/sessions/:sessionId/mcp';
/** The route's exact form (a GET or POST there skips Express); its case and trailing-slash variants go through Express. */
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

/** The answer to a request the MCP route could not take: its path, its body, or an unexpected error. */
function sendRequestError(err: unknown, res: ServerResponse, log: Logger): void {
  // The router could not percent-decode the session id in the path (e.g. /sessions/%ZZ/mcp).
  if (err instanceof URIError) return sendHttpError(res, 400, INVALID_PATH_ENCODING);
  const type = typeof err === 'object' && err !== null ? (err as BodyParserError).type : undefined;
  if (type === 'entity.too.large') return sendHttpError(res, 413, `request body over ${MCP_MAX_BODY_BYTES} bytes`);
  if (type === 'entity.parse.failed')
    return sendHttpError(res, 400, 'request body is not valid JSON', JSONRPC_PARSE_ERROR);
  log.error({ err }, 'MCP request failed');
  sendHttpError(res, 500, 'internal error');
}

function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => sendRequestError(err, res, log);
}

/** Reads a JSON body as the Express route does (express.json: its limit, media type and errors). */
type JsonBodyReader = (req: IncomingMessage, res: ServerResponse, done: (err?: unknown) => void) => void;

interface DirectRoute {
  endpoint: McpEndpoint;
  allowedHosts: readonly string[];
  readJson: JsonBodyReader;
  log: Logger;
}

/**
 * A GET or a POST on the exact MCP route served without Express, with the same host check, body
 * parser, errors and endpoint. Express gives every request and response it handles a hidden class of
 * its own (it swaps their prototypes): a held GET stream kept both alive (about 2 KB of heap per idle
 * connection, and more in the old-space pages they fragment), and on a POST (tools/list, every tool
 * call) its routing and the swap were a good part of agentctl's own time. Returns false when the
 * request is not one of those (Express serves it).
 */
function serveDirectly(direct: DirectRoute, req: IncomingMessage, res: ServerResponse): boolean {
  const { method, url } = req;
  const match = (method === 'GET' || method === 'POST') && url !== undefined ? EXACT_MCP_PATH.exec(url) : null;
  if (match === null) return false;
  if (!hostAllowed(req, res, direct.allowedHosts)) return true;
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(match[1] ?? '');
  } catch (err) {
    sendRequestError(err, res, direct.log);
    return true;
  }
  const serve = (body: unknown) =>
    direct.endpoint(req, res, sessionId, body).catch((err: unknown) => sendRequestError(err, res, direct.log));
  if (method === 'GET') {
    void serve(undefined);
    return true;
  }
  direct.readJson(req, res, (err) => {
    if (err !== undefined) sendRequestError(err, res, direct.log);
    else void serve((req as IncomingMessage & { body?: unknown }).body);
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
  const readJson = express.json({ limit: MCP_MAX_BODY_BYTES });
  app.post(MCP_ROUTE, readJson, route);
  app.get(MCP_ROUTE, route);
  app.delete(MCP_ROUTE, route);
  app.use((_req, res) => sendHttpError(res, 404, 'not found'));
  app.use(errorHandler(deps.log));
  const direct: DirectRoute = {
    endpoint,
    allowedHosts: [...LOCAL_HOST_NAMES, ...deps.allowedHosts],
    readJson,
    log: deps.log,
  };
  return (req, res) => {
    if (!serveDirectly(direct, req, res)) app(req, res);
  };
}
