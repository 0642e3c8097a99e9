// Counts the round trips a backend waits for on PostgreSQL, from outside it: a TCP proxy between its
// connections and the server that reads the protocol's message frames. Every Sync or simple Query the
// client sends is answered by exactly one ReadyForQuery; a round trip starts when the client sends one
// while none is outstanding (it had waited for every answer). Statements sent behind others still in
// flight (pg's pipeline mode) ride the round trip already under way.
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { Cleanup } from './cleanup';

export interface RoundTripProxy {
  /** The server's URL, pointing at the proxy. */
  url: string;
  /** The round trips every connection started while `work` ran. */
  count(work: () => Promise<unknown>): Promise<number>;
}

/** Message frames of one direction: a type byte (not on the client's first message) and a length. */
class Frames {
  private buffer = Buffer.alloc(0);

  constructor(private untypedFirst: boolean) {}

  /** The types of the messages `chunk` completes ('' for the untyped startup message). */
  push(chunk: Buffer): string[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const types: string[] = [];
    for (;;) {
      const head = this.untypedFirst ? 0 : 1;
      if (this.buffer.length < head + 4) return types;
      const length = this.buffer.readUInt32BE(head);
      if (this.buffer.length < head + length) return types;
      types.push(this.untypedFirst ? '' : String.fromCharCode(this.buffer[0] as number));
      this.buffer = this.buffer.subarray(head + length);
      this.untypedFirst = false;
    }
  }
}

export async function startRoundTripProxy(cleanup: Cleanup, serverUrl: string): Promise<RoundTripProxy> {
  const target = new URL(serverUrl);
  let roundTrips = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    const fromClient = new Frames(true);
    const fromServer = new Frames(false);
    let outstanding = 1; // the ReadyForQuery that ends the start-up
    client.on('data', (chunk: Buffer) => {
      for (const type of fromClient.push(chunk)) {
        if (type !== 'S' && type !== 'Q') continue;
        if (outstanding === 0) roundTrips += 1;
        outstanding += 1;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      for (const type of fromServer.push(chunk)) if (type === 'Z') outstanding -= 1;
      client.write(chunk);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', close).on('error', close);
    upstream.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.defer(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    async count(work) {
      const before = roundTrips;
      await work();
      return roundTrips - before;
    },
  };
}
