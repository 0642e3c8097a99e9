import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export interface ListeningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Listens on host:port (0 = any free port) and resolves once the socket is bound. */
export async function listen(app: Express, host: string, port: number): Promise<ListeningServer> {
  const server = createServer(app);
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
