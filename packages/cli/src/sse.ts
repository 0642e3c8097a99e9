// A Server-Sent Events parser (the WHATWG event-stream format): `field: value` lines, a blank line
// ends an event, `:` lines are comments (the backend's pings), several `data` lines join with "\n".

export interface SseEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;

  /** `onComment` sees each `:` line's text, trimmed (the backend's `ping`s). */
  constructor(private readonly onComment: (text: string) => void = () => undefined) {}

  /** Feeds a chunk of text; returns the events it completed, in order. */
  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const events: SseEvent[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      // A trailing "\r" may be half of a "\r\n" split across chunks: wait for the next one.
      if (end < 0 || (end === this.buffer.length - 1 && this.buffer[end] === '\r')) break;
      const line = this.buffer.slice(0, end);
      const newline = this.buffer.startsWith('\r\n', end) ? 2 : 1;
      this.buffer = this.buffer.slice(end + newline);
      const event = this.line(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (this.data.length === 0) {
        this.event = '';
        return undefined;
      }
      const event = { id: this.id, event: this.event === '' ? 'message' : this.event, data: this.data.join('\n') };
      this.data = [];
      this.event = '';
      return event;
    }
    if (line.startsWith(':')) {
      this.onComment(line.slice(1).trim());
      return undefined;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}

/** Every event of a response body, as it arrives; ends when the server ends the stream. */
export async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const parser = new SseParser();
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
}
