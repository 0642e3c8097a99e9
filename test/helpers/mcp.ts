import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Cleanup } from './cleanup';
import { waitUntil } from './wait';

export interface McpConnection {
  client: Client;
  /** Count of notifications/tools/list_changed received so far. */
  listChangedCount: () => number;
  /** Sorted names from a fresh tools/list. */
  toolNames: () => Promise<string[]>;
  /**
   * True once the server accepted the client's GET SSE stream, where server notifications such as
   * list_changed arrive. The SDK opens it in the background after connect(); wait for it with waitUntil
   * before triggering a notification, or the server has nowhere to send it.
   */
  notificationStreamOpen: () => boolean;
  /**
   * True once the server ended the GET SSE stream (it closed the connection: session stopped or resumed)
   * and the client has read it to the end. See finalListChangedCount.
   */
  notificationStreamEnded: () => boolean;
}

/** A real SDK client over Streamable HTTP, presenting `token` as its bearer (as an agent would). */
export async function connectMcp(cleanup: Cleanup, url: string, token: string): Promise<McpConnection> {
  const client = new Client({ name: 'kandev-test-agent', version: '0.0.0' });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged += 1;
  });
  let streamOpen = false;
  let streamEnded = false;
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: async (input, init) => {
      const isGet = (init?.method ?? 'GET') === 'GET';
      // The SDK opens a GET again (to reconnect) only after it has read the open one to its end and
      // handed every message on it to the client.
      if (isGet && streamOpen) streamEnded = true;
      const response = await fetch(input, init);
      if (isGet && response.ok) streamOpen = true;
      return response;
    },
  });
  await client.connect(transport);
  cleanup.defer(() => client.close());
  return {
    client,
    listChangedCount: () => listChanged,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name).sort(),
    notificationStreamOpen: () => streamOpen,
    notificationStreamEnded: () => streamEnded,
  };
}

/**
 * How many list_changed the client got in all, read once the server has ended its notification stream
 * (the caller stopped or resumed the session, which closes its connections). The end of the stream
 * comes after every notification sent on it, so the count is final: the barrier for "no other
 * notification arrived". A count read earlier only says what has arrived so far.
 */
export async function finalListChangedCount(mcp: McpConnection, logs: () => string): Promise<number> {
  await waitUntil(() => mcp.notificationStreamEnded(), {
    timeoutMs: 5_000,
    logs,
    what: 'the server to end the notification stream',
  });
  return mcp.listChangedCount();
}

/** A raw MCP initialize POST, to see the HTTP status a given Authorization header gets. */
export async function rawInitialize(url: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    }),
  });
}
