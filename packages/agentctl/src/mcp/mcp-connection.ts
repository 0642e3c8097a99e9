import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SessionConnection } from '../sessions/session-connection';

/** One MCP client connection: its Streamable HTTP transport and its own low-level Server. */
export class McpConnection implements SessionConnection {
  constructor(
    readonly id: string,
    private readonly server: Server,
    private readonly transport: StreamableHTTPServerTransport,
  ) {}

  /** A follow-up request (POST/GET/DELETE) carrying this connection's mcp-session-id. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    return this.transport.handleRequest(req, res, body);
  }

  notifyToolsChanged(): Promise<void> {
    return this.server.sendToolListChanged();
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
