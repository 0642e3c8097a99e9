import type { ServerResponse } from 'node:http';

/** JSON-RPC error codes used on HTTP-level refusals (no request id is known at that point). */
export const JSONRPC_SERVER_ERROR = -32000;
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;

/**
 * Every HTTP-level refusal on the MCP listener has one JSON shape (the one the SDK's own transport
 * uses), written only while the response is still open. A plain node response: the GET stream path
 * answers without Express (mcp-app.ts).
 */
export function sendHttpError(res: ServerResponse, status: number, message: string, code = JSONRPC_SERVER_ERROR): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
