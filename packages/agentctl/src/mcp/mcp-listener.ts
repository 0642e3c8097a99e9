import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface McpListener {
  readonly port: number;
  /**
   * Stops accepting connections, runs `drain` (closing MCP transports ends their open SSE streams and
   * pending responses), then drops the remaining sockets (keep-alive sockets would otherwise hold the
   * listener open until their idle timeout) and resolves once every connection has ended.
   */
  close(drain: () => Promise<void>): Promise<void>;
}

export async function startMcpListener(app: RequestListener, host: string, port: number): Promise<McpListener> {
  const server: Server = createServer(app);
  server.listen(port, host);
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    async close(drain) {
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await drain();
      server.closeAllConnections();
      await closed;
    },
  };
}
