// A node http server on 127.0.0.1 (a random port) for the provider test servers, closed by the cleanup.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cleanup } from './cleanup';

/** Listens with `handler`; resolves the server's `http://127.0.0.1:<port>`. */
export async function listenOnLoopback(cleanup: Cleanup, handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.defer(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
