import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/** What a raw client saw before the server closed its socket. */
export interface ClosedSocket {
  /** Everything the server wrote (e.g. a 408 response), as text. */
  received: string;
}

/**
 * Opens a raw TCP connection, writes `chunks` and then nothing more; resolves once the SERVER closes
 * the socket (its 'close' event is the barrier, no sleep). Never resolves if the server keeps it open,
 * so the caller's test timeout bounds it.
 */
export async function closedByServer(port: number, chunks: string[]): Promise<ClosedSocket> {
  const socket: Socket = connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (data: string) => {
    received += data;
  });
  const closed = once(socket, 'close');
  for (const chunk of chunks) socket.write(chunk);
  await closed;
  return { received };
}

/** A request line and headers, left unfinished (no blank line). */
export const INCOMPLETE_HEADERS = (path: string): string[] => [`POST ${path} HTTP/1.1\r\nHost: localhost\r\n`];

/** Complete headers announcing a 100-byte JSON body, then only part of it. */
export const INCOMPLETE_BODY = (path: string, headers: Record<string, string> = {}): string[] => [
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n` +
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    '\r\n',
  '{"jsonrpc":',
];

/** One complete keep-alive GET; the socket then stays idle until the server closes it. */
export const IDLE_AFTER_REQUEST = (path: string): string[] => [
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`,
];
