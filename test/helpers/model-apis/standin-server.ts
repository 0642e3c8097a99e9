// A scripted model API on 127.0.0.1 (port 0): the shared part of every family's stand-in. It reads each
// request's JSON body, hands it to the family (which records it and answers in its wire format), keeps
// every recorded request, and resolves waiters when the request they wait for arrives.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { Cleanup } from '../cleanup';
import { serveOnLoopback } from '../loopback-server';
import type { ModelRequest } from './model-request';
import type { ModelTurn } from './model-script';

export interface StandinCall {
  method: string;
  /** The URL path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  body: unknown;
}

export interface FamilyContext {
  /** The script as it is now (a test may replace it between prompts). */
  readonly turns: readonly ModelTurn[];
  record(request: ModelRequest): void;
}

/** One model API: how it reads a request and says a step. */
export interface ModelFamily {
  readonly name: string;
  serve(call: StandinCall, response: ServerResponse, context: FamilyContext): Promise<void>;
}

interface Waiter {
  holds: (request: ModelRequest) => boolean;
  resolve: (request: ModelRequest) => void;
}

const DEFAULT_WAIT_MS = 20_000;

export class ModelStandin {
  readonly requests: ModelRequest[] = [];
  /** Requests the family could not answer (with why), shown when a wait fails. */
  readonly faults: string[] = [];
  private readonly waiters = new Set<Waiter>();
  private turnsNow: readonly ModelTurn[];
  private url = '';

  constructor(
    readonly family: ModelFamily,
    turns: readonly ModelTurn[],
  ) {
    this.turnsNow = turns;
  }

  get baseUrl(): string {
    return this.url;
  }

  get turns(): readonly ModelTurn[] {
    return this.turnsNow;
  }

  /** Replaces the script; requests already answered keep their answers. */
  script(turns: readonly ModelTurn[]): void {
    this.turnsNow = turns;
  }

  mainRequests(): ModelRequest[] {
    return this.requests.filter((r) => r.kind === 'main');
  }

  /** The first recorded request that holds, now or when it arrives; fails after the deadline. */
  waitForRequest(holds: (request: ModelRequest) => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS) {
    const seen = this.requests.find(holds);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<ModelRequest>((resolve, reject) => {
      const waiter: Waiter = {
        holds,
        resolve: (request) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(request);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Error(`${this.family.name} stand-in: no request ${what} within ${timeoutMs} ms\n${this.summary()}`));
      }, timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** The next main request recorded from now on (resolved by the server when it arrives). */
  nextMainRequest(timeoutMs = DEFAULT_WAIT_MS): Promise<ModelRequest> {
    const from = this.requests.length;
    const isNext = (r: ModelRequest) => r.kind === 'main' && this.requests.indexOf(r) >= from;
    return this.waitForRequest(isNext, 'main request after this point', timeoutMs);
  }

  /** One line per request (kind, latest prompt, step), for failure messages. */
  summary(): string {
    const lines = this.requests.map((r, i) => {
      const prompt = (r.userTexts.at(-1) ?? '').slice(-80).replace(/\s+/g, ' ');
      return `  #${i} ${r.kind} prompt="${prompt}" results=${r.toolResults.length} step=${JSON.stringify(r.step)}`;
    });
    return [`requests (${this.requests.length}):`, ...lines, ...this.faults.map((f) => `  fault: ${f}`)].join('\n');
  }

  record(request: ModelRequest): void {
    this.requests.push(request);
    for (const waiter of [...this.waiters]) if (waiter.holds(request)) waiter.resolve(request);
  }

  async listen(cleanup: Cleanup): Promise<void> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const url = new URL(request.url ?? '/', 'http://standin');
        const call: StandinCall = {
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          body: parseJson(Buffer.concat(chunks).toString('utf8')),
        };
        const context: FamilyContext = { turns: this.turnsNow, record: (r) => this.record(r) };
        this.family.serve(call, response, context).catch((error: unknown) => {
          this.faults.push(`${call.method} ${call.path}: ${error instanceof Error ? error.message : String(error)}`);
          if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
          response.end('{"error":{"message":"stand-in fault"}}');
        });
      });
    });
    // Codex first asks for the Responses API over a WebSocket; 426 makes it use HTTP + SSE at once.
    // No other family asks for an upgrade, so every stand-in refuses them.
    server.on('upgrade', (_request, socket) => {
      socket.on('error', () => undefined);
      socket.end('HTTP/1.1 426 Upgrade Required\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
    });
    const port = await serveOnLoopback(cleanup, server);
    this.url = `http://127.0.0.1:${port}`;
  }
}

function parseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A stand-in for `family` on loopback, closed by the cleanup; `turns` can be replaced later. */
export async function startModelStandin(
  cleanup: Cleanup,
  family: ModelFamily,
  turns: readonly ModelTurn[] = [],
): Promise<ModelStandin> {
  const standin = new ModelStandin(family, turns);
  await standin.listen(cleanup);
  return standin;
}

/** Answers a JSON body. */
export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
