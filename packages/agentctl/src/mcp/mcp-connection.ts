import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { SessionConnection } from '../sessions/session-connection';

export interface IdlePolicy {
  readonly timeoutMs: number;
  /** Called once when the connection is closed for being idle (for the log). */
  readonly onIdle: () => void;
}

/**
 * One MCP client connection: its Streamable HTTP transport and its own low-level Server. A client
 * that goes away without DELETE would otherwise hold its transport forever, so the connection closes
 * itself once no request or stream has been open for the idle timeout.
 */
export class McpConnection implements SessionConnection {
  /** Requests and streams (the GET stream, a POST's SSE answer) whose response is still open. */
  private open = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private ended = false;

  constructor(
    readonly id: string,
    private readonly server: Server,
    private readonly transport: StreamableHTTPServerTransport,
    private readonly idle: IdlePolicy,
  ) {}

  /** Holds the idle clock while this response is open; it starts again once nothing is open. */
  track(res: ServerResponse): void {
    this.open += 1;
    this.stopIdleClock();
    res.once('close', () => {
      this.open -= 1;
      if (this.open === 0) this.startIdleClock();
    });
  }

  /** A follow-up request (POST/GET/DELETE) carrying this connection's mcp-session-id. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    this.track(res);
    return this.transport.handleRequest(req, res, body);
  }

  notifyToolsChanged(): Promise<void> {
    return this.server.sendToolListChanged();
  }

  close(): Promise<void> {
    this.markEnded();
    return this.server.close();
  }

  /** The transport closed (DELETE, close(), idle): no idle clock runs again. */
  markEnded(): void {
    this.ended = true;
    this.stopIdleClock();
  }

  private startIdleClock(): void {
    if (this.ended) return;
    this.stopIdleClock();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.idle.onIdle();
      void this.close();
    }, this.idle.timeoutMs);
    // An idle connection must not keep agentctl alive.
    this.idleTimer.unref();
  }

  private stopIdleClock(): void {
    if (this.idleTimer === undefined) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
