import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AgentctlMetrics } from '../metrics/agentctl-metrics';
import type { SessionConnection } from '../sessions/session-connection';
import type { ToolSet } from '../tools/tool-set-cache';
import {
  getStreamRefusal,
  postAcceptsAnswers,
  protocolVersionRefusal,
  sseHeaders,
  TOOLS_LIST_CHANGED_EVENT,
  toolsListRequestId,
  toolsListResponse,
  writeRefusal,
} from './streamable-http';

export interface IdlePolicy {
  readonly timeoutMs: number;
  /** Called once when the connection is closed for being idle (for the log). */
  readonly onIdle: () => void;
}

export interface ConnectionDeps {
  /** The session's CURRENT tool set (read on every tools/list). */
  readonly toolSet: () => ToolSet;
  /** Told after each tools/list this connection answers itself. */
  readonly onListed: () => void;
  readonly idle: IdlePolicy;
  readonly metrics?: Pick<AgentctlMetrics, 'toolsList'>;
}

/**
 * One MCP client connection. The SDK's low-level Server and Streamable HTTP transport run the protocol
 * (initialize, tools/call, ping, cancellation, DELETE, every error), except on the two paths where a
 * session spends its time and memory:
 * - tools/list: answered from the tool set's body serialised once, as application/json (a client must
 *   accept it); the SDK path parses it with zod, wraps the node request as a web Request and streams
 *   the answer as SSE, several times the cost of the answer itself (docs/benchmarks.md).
 * - the GET stream: held as the bare node response. Through the SDK it is a web ReadableStream piped
 *   into the response, which kept most of an idle connection's memory. Its only event, list_changed, is written
 *   here; the SDK sends nothing else without a related request (those go on the POST's own stream).
 * A client that goes away without DELETE would otherwise hold its transport forever, so the connection
 * closes itself once no request or stream has been open for the idle timeout.
 */
export class McpConnection implements SessionConnection {
  /** Requests and streams (the GET stream, a POST's SSE answer) whose response is still open. */
  private open = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private ended = false;
  private stream: ServerResponse | undefined;

  constructor(
    readonly id: string,
    private readonly server: Server,
    private readonly transport: StreamableHTTPServerTransport,
    private readonly deps: ConnectionDeps,
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
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    if (req.method === 'GET') return this.openStream(req, res);
    if (req.method === 'POST' && this.answerToolsList(req, res, body)) return;
    this.track(res);
    await this.transport.handleRequest(req, res, body);
  }

  notifyToolsChanged(): Promise<void> {
    // No stream open: the client gets nothing, as with the SDK (it re-lists when it reconnects).
    if (this.stream !== undefined && !this.stream.writableEnded) {
      this.stream.write(TOOLS_LIST_CHANGED_EVENT);
      // write() corks the socket until the next tick, and grpc-js writes the provider update's answer
      // before that: uncorked, the notification leaves first (docs/benchmarks.md).
      this.stream.uncork();
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.markEnded();
    return this.server.close();
  }

  /** The transport closed (DELETE, close(), idle): the stream ends and no idle clock runs again. */
  markEnded(): void {
    this.ended = true;
    this.stopIdleClock();
    this.stream?.end();
    this.stream = undefined;
  }

  /** True when the body was a plain tools/list request and has been answered. */
  private answerToolsList(req: IncomingMessage, res: ServerResponse, body: unknown): boolean {
    const id = toolsListRequestId(body);
    // Refusals (406, 400) are the SDK's to write: it knows every case.
    if (id === undefined || this.ended || !postAcceptsAnswers(req) || protocolVersionRefusal(req) !== undefined) {
      return false;
    }
    const answer = () => toolsListResponse(this.deps.toolSet(), id);
    const [list, tail] = this.deps.metrics?.toolsList(answer) ?? answer();
    res.cork(); // headers and both parts leave in one write
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': list.length + tail.length,
      'mcp-session-id': this.id,
    });
    res.write(list);
    res.end(tail);
    res.uncork();
    this.deps.onListed();
    // An answered request is activity: the idle clock starts over.
    if (this.open === 0) this.startIdleClock();
    return true;
  }

  private openStream(req: IncomingMessage, res: ServerResponse): void {
    const refusal = this.ended
      ? { status: 404, code: -32001, message: 'Session not found' }
      : getStreamRefusal(req, this.stream !== undefined);
    if (refusal !== undefined) {
      writeRefusal(res, refusal);
      return;
    }
    this.stream = res;
    this.track(res);
    res.once('close', () => {
      if (this.stream === res) this.stream = undefined;
    });
    res.writeHead(200, sseHeaders(this.id));
    res.flushHeaders();
  }

  private startIdleClock(): void {
    if (this.ended) return;
    this.stopIdleClock();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      this.deps.idle.onIdle();
      void this.close();
    }, this.deps.idle.timeoutMs);
    // An idle connection must not keep agentctl alive.
    this.idleTimer.unref();
  }

  private stopIdleClock(): void {
    if (this.idleTimer === undefined) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}
