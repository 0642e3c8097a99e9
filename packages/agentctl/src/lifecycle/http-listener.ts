import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HttpTimeouts, httpServerOptions } from '@kandev/protocol';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import type { RequestHandler } from 'express';

/** Host names always accepted on agentctl's HTTP listeners (any port); config adds more. */
export const LOCAL_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * DNS-rebinding protection of every HTTP listener: a request whose Host is not a local name or one the
 * operator listed (KANDEV_AGENTCTL_ALLOWED_HOSTS) is refused with 403 before any route runs.
 */
export function hostCheck(allowedHosts: readonly string[]): RequestHandler {
  return hostHeaderValidation([...LOCAL_HOST_NAMES, ...allowedHosts]);
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
