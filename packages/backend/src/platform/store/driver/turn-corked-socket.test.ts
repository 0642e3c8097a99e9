import { createServer, type Server, type Socket } from 'node:net';
import { TurnCorkedSocket } from './turn-corked-socket';

/** A loopback server that keeps what its one connection received. */
async function receiver(): Promise<{ server: Server; port: number; received: (bytes: number) => Promise<string> }> {
  let text = '';
  let waiting: { bytes: number; resolve: (text: string) => void } | undefined;
  const server = createServer((peer: Socket) => {
    peer.setEncoding('utf8');
    peer.on('data', (chunk: string) => {
      text += chunk;
      if (waiting !== undefined && text.length >= waiting.bytes) waiting.resolve(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const received = (bytes: number) =>
    new Promise<string>((resolve) => {
      waiting = { bytes, resolve };
      if (text.length >= bytes) resolve(text);
    });
  return { server, port: address.port, received };
}

describe('TurnCorkedSocket', () => {
  let server: Server | undefined;
  let socket: TurnCorkedSocket | undefined;
  afterEach(async () => {
    socket?.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  test("one turn's statements, corked by pg one by one, and a write after them leave in one call", async () => {
    const peer = await receiver();
    server = peer.server;
    const client = new TurnCorkedSocket();
    socket = client;
    await new Promise<void>((resolve) => client.connect(peer.port, '127.0.0.1', resolve));
    const writev = jest.spyOn(client, '_writev');
    const write = jest.spyOn(client, '_write');
    const calls = () => writev.mock.calls.map(([chunks]) => chunks.map(({ chunk }) => String(chunk)));
    const statement = (...messages: string[]) => {
      client.cork(); // as pg does around one statement's messages
      for (const message of messages) client.write(message);
      client.uncork();
    };

    client.write('BEGIN;'); // no cork open: it leaves at once, alone
    statement('parse1;', 'bind1;');
    await Promise.resolve(); // a promise job of the same turn
    statement('bind2;');
    client.write('COMMIT;');
    const first = 'BEGIN;parse1;bind1;bind2;COMMIT;';
    expect(await peer.received(first.length)).toBe(first);
    expect(write).toHaveBeenCalledTimes(1);
    expect(calls()).toEqual([['parse1;', 'bind1;', 'bind2;', 'COMMIT;']]);
    expect(client.writableCorked).toBe(0);

    statement('next;'); // a later turn: its own call, not held back
    expect(await peer.received(first.length + 5)).toBe(`${first}next;`);
    expect(write).toHaveBeenCalledTimes(2);
    expect(client.writableCorked).toBe(0);
  });
});
