import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HTTP_TIMEOUT_DEFAULTS, type HttpTimeouts, httpServerOptions } from '@kandev/protocol';
import type { Express } from 'express';

export interface ListeningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on host:port (0 = any free port) and resolves once the socket is bound. A client that does
 * not finish its headers or body in time, or idles between keep-alive requests, is disconnected.
 */
export async function listen(
  app: Express,
  host: string,
  port: number,
  timeouts: HttpTimeouts = HTTP_TIMEOUT_DEFAULTS,
): Promise<ListeningServer> {
  const server = createServer(httpServerOptions(timeouts), app);
  server.listen(port, host);
  await once(server, 'listening'); // rejects on 'error' (e.g. EADDRINUSE)
  const address = server.address() as AddressInfo;
  return { server, port: address.port, close: () => closeServer(server) };
}

/** Stops accepting connections, drops idle keep-alive sockets and waits for in-flight requests. */
export async function closeServer(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  server.closeIdleConnections();
  await closed;
}
