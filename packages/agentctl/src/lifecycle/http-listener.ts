import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpTimeouts, httpServerOptions } from '@kandev/protocol';
import type { RequestHandler } from 'express';

/** Host names always accepted on agentctl's HTTP listeners (any port); config adds more. */
export const LOCAL_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * DNS-rebinding protection of every HTTP listener: a request whose Host is not a local name or one the
 * operator listed (KANDEV_AGENTCTL_ALLOWED_HOSTS) is refused with 403 before any route runs.
 */
export function hostCheck(allowedHosts: readonly string[]): RequestHandler {
  const allowed = [...LOCAL_HOST_NAMES, ...allowedHosts];
  return (req, res, next) => {
    if (hostAllowed(req, res, allowed)) next();
  };
}

/**
 * The check of hostCheck on a plain node request (a path served without Express): true when the Host
 * header names one of `allowed` (any port); otherwise writes the 403 (the MCP SDK middleware's JSON-RPC
 * error shape and messages) and returns false.
 */
export function hostAllowed(req: IncomingMessage, res: ServerResponse, allowed: readonly string[]): boolean {
  const host = req.headers.host;
  let refusal: string | undefined;
  if (host === undefined || host === '') {
    refusal = 'Missing Host header';
  } else {
    let hostname: string | undefined;
    try {
      hostname = new URL(`http://${host}`).hostname;
    } catch {
      refusal = `Invalid Host header: ${host}`;
    }
    if (hostname !== undefined && !allowed.includes(hostname)) refusal = `Invalid Host: ${hostname}`;
  }
  if (refusal === undefined) return true;
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refusal }, id: null });
  res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
  return false;
}

export interface HttpListener {
  readonly port: number;
  /**
   * Stops accepting connections, runs `drain` (the MCP listener closes its transports, ending their open
   * SSE streams and pending responses), then drops the remaining sockets (keep-alive sockets would
   * otherwise hold the listener open until their idle timeout) and resolves once every connection has ended.
   */
  close(drain?: () => Promise<void>): Promise<void>;
}

/**
 * Every HTTP listener of agentctl (MCP, metrics) starts here, so each gets the same timeouts: a client
 * that does not finish its headers or body in time, or idles between requests, is disconnected.
 */
export async function startHttpListener(
  app: RequestListener,
  host: string,
  port: number,
  timeouts: HttpTimeouts,
): Promise<HttpListener> {
  const server: Server = createServer(httpServerOptions(timeouts), app);
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    async close(drain) {
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await drain?.();
      server.closeAllConnections();
      await closed;
    },
  };
}
