// A node http server on 127.0.0.1 (a random port) for the provider test servers, closed by the cleanup.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Cleanup } from './cleanup';

/** Listens with `handler`; resolves the server's `http://127.0.0.1:<port>`. */
export async function listenOnLoopback(cleanup: Cleanup, handler: RequestListener): Promise<string> {
  return `http://127.0.0.1:${await serveOnLoopback(cleanup, createServer(handler))}`;
}

/** Listens on 127.0.0.1 (any port) until the cleanup closes it; resolves the port. An https server too. */
export async function serveOnLoopback(cleanup: Cleanup, server: Server | HttpsServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.defer(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}
