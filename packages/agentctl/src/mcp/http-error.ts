import type { Response } from 'express';

/** JSON-RPC error codes used on HTTP-level refusals (no request id is known at that point). */
export const JSONRPC_SERVER_ERROR = -32000;
export const JSONRPC_PARSE_ERROR = -32700;
export const JSONRPC_INVALID_REQUEST = -32600;

/**
 * Every HTTP-level refusal on the MCP listener has one JSON shape (the one the SDK's own transport
 * uses), written only while the response is still open.
 */
export function sendHttpError(res: Response, status: number, message: string, code = JSONRPC_SERVER_ERROR): void {
  if (res.headersSent) return;
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}
