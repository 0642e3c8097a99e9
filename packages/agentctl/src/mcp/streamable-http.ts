import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSet } from '../tools/tool-set-cache';

// The few Streamable HTTP rules agentctl applies itself on its two hot paths (tools/list POST, GET
// stream). Messages are the SDK transport's own, so a client sees the same refusal on either path.

/** What refusing a request takes: HTTP status, JSON-RPC code, message. */
export interface HttpRefusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
}

/** Writes a refusal in the SDK transport's shape (a JSON-RPC error without id). */
export function writeRefusal(res: ServerResponse, { status, code, message }: HttpRefusal): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The part of a request these checks read. */
export interface RequestHeaders {
  readonly headers: IncomingHttpHeaders;
}

function accepts(req: RequestHeaders, mediaType: string): boolean {
  return req.headers.accept?.includes(mediaType) ?? false;
}

/** An MCP-Protocol-Version header, when sent, must name a version the SDK supports. */
export function protocolVersionRefusal(req: RequestHeaders): HttpRefusal | undefined {
  const version = req.headers['mcp-protocol-version'];
  if (version === undefined || (typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version))) {
    return undefined;
  }
  const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
  const shown = Array.isArray(version) ? version.join(', ') : version;
  return {
    status: 400,
    code: -32000,
    message: `Bad Request: Unsupported protocol version: ${shown} (supported versions: ${supported})`,
  };
}

/** A POST must accept both JSON and SSE answers (the server picks one). */
export function postAcceptsAnswers(req: RequestHeaders): boolean {
  return accepts(req, 'application/json') && accepts(req, 'text/event-stream');
}

/** The checks the SDK transport makes on a GET (stream) request, minus the session (already matched). */
export function getStreamRefusal(req: RequestHeaders, streamOpen: boolean): HttpRefusal | undefined {
  if (!accepts(req, 'text/event-stream')) {
    return { status: 406, code: -32000, message: 'Not Acceptable: Client must accept text/event-stream' };
  }
  const version = protocolVersionRefusal(req);
  if (version !== undefined) return version;
  if (streamOpen) {
    return { status: 409, code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' };
  }
  return undefined;
}

/** The headers the SDK transport opens an SSE stream with. */
export function sseHeaders(mcpSessionId: string): Record<string, string> {
  return {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'mcp-session-id': mcpSessionId,
  };
}

/** One JSON-RPC message as an SSE event, framed as the SDK transport frames it. */
export function sseEvent(message: string): string {
  return `event: message\ndata: ${message}\n\n`;
}

/** `notifications/tools/list_changed` exactly as the SDK Server serialises it. */
export const TOOLS_LIST_CHANGED_EVENT = sseEvent(
  JSON.stringify({ method: 'notifications/tools/list_changed', jsonrpc: '2.0' }),
);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The id of a body that is one well-formed `tools/list` request (params absent, or an object whose
 * cursor and _meta have their schema types), or undefined. Anything else takes the SDK's path, which
 * validates it fully and answers errors; so this only has to be sure, not complete.
 */
export function toolsListRequestId(body: unknown): string | number | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || body.method !== 'tools/list') return undefined;
  const { id, params } = body;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (params !== undefined) {
    if (!isPlainObject(params)) return undefined;
    if (params.cursor !== undefined && typeof params.cursor !== 'string') return undefined;
    if (params._meta !== undefined && !isPlainObject(params._meta)) return undefined;
  }
  return id as string | number;
}

/** Each tool set's tools/list answer up to its id, as bytes: built once, written as is on every call. */
const answerPrefixes = new WeakMap<ToolSet, Buffer>();

/**
 * The JSON-RPC response to a tools/list request in two parts: the tool set's list, serialised and
 * encoded once, and the request's id. Rebuilding and encoding the whole answer per call was most of
 * agentctl's allocation on this path (and its young-generation GCs).
 */
export function toolsListResponse(toolSet: ToolSet, id: string | number): readonly [Buffer, Buffer] {
  let prefix = answerPrefixes.get(toolSet);
  if (prefix === undefined) {
    prefix = Buffer.from(`{"result":${toolSet.listResultJson},"jsonrpc":"2.0","id":`);
    answerPrefixes.set(toolSet, prefix);
  }
  return [prefix, Buffer.from(`${JSON.stringify(id)}}`)];
}
