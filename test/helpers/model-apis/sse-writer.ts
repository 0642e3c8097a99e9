// Server-Sent Events out of a stand-in: one `data:` frame per payload (with an `event:` line when the
// API names its events), and a way to hold a stream open until the client goes away.
import type { ServerResponse } from 'node:http';

export class SseWriter {
  private readonly closedPromise: Promise<void>;

  constructor(private readonly response: ServerResponse) {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // flushHeaders: a client waiting for the first byte (a hang step) must see the stream open.
    response.flushHeaders();
    this.closedPromise = new Promise((resolve) => response.once('close', () => resolve()));
  }

  /** True once the client went away (or the stream ended). */
  get closed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  send(data: unknown, event?: string): void {
    if (this.closed) return;
    const head = event === undefined ? '' : `event: ${event}\n`;
    this.response.write(`${head}data: ${JSON.stringify(data)}\n\n`);
  }

  end(): void {
    if (!this.closed) this.response.end();
  }

  /** Resolves when the client closes the connection: how a `hang` step ends. */
  untilClosed(): Promise<void> {
    return this.closedPromise;
  }
}

/** A text cut into `parts` deltas (at least one), so agents see a streamed answer. */
export function textDeltas(text: string, parts = 3): string[] {
  if (text.length === 0) return [''];
  const size = Math.ceil(text.length / parts);
  const deltas: string[] = [];
  for (let at = 0; at < text.length; at += size) deltas.push(text.slice(at, at + size));
  return deltas;
}
