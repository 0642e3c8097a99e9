// A small Server-Sent Events client over fetch for GET /api/events (docs/events.md): parses frames as the
// EventSource spec reads them (id, event, data lines; `:` comments) and lets a test wait for the frames
// it expects. No reconnection of its own: a test reconnects explicitly with the Last-Event-ID it saw.
import { type SseEvent, SseParser } from '../../packages/cli/src/sse';
import type { Cleanup } from './cleanup';

/** One dispatched frame. `data` is the joined data lines. */
export type SseFrame = SseEvent;

/** The `data:` JSON of an /api/events frame. */
export interface StreamEvent {
  id: string;
  type: string;
  at: string;
  task_id: string | null;
  session_id: string | null;
  data: Record<string, unknown>;
}

export interface OpenStreamOptions {
  token?: string;
  lastEventId?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** The head frame's type (never stored; see docs/events.md). */
export const STREAM_HEAD = 'stream.head';

/**
 * An open /api/events stream: every event frame read so far is in `frames`, in order; the head frames
 * are in `heads`, and `order` holds every frame's event name as it arrived (heads included).
 */
export class SseStream {
  readonly frames: SseFrame[] = [];
  readonly heads: SseFrame[] = [];
  readonly order: string[] = [];
  private lastId: string | undefined;
  private readonly commentLines: string[] = [];
  private readonly parser = new SseParser((text) => this.commentLines.push(text));
  private readonly waiters = new Set<() => void>();
  private ended = false;
  private failure: unknown;

  private constructor(
    readonly status: number,
    readonly headers: Headers,
    private readonly controller: AbortController,
    body: ReadableStream<Uint8Array>,
    private readonly timeoutMs: number,
  ) {
    void this.read(body);
  }

  /** Opens the stream; resolves once the response headers arrived (any status: check `status`). */
  static async open(url: string, cleanup: Cleanup, options: OpenStreamOptions = {}): Promise<SseStream> {
    const headers: Record<string, string> = { accept: 'text/event-stream', ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
    const controller = new AbortController();
    const response = await fetch(url, { headers, signal: controller.signal });
    const stream = new SseStream(
      response.status,
      response.headers,
      controller,
      response.body ?? new ReadableStream(),
      options.timeoutMs ?? 10_000,
    );
    cleanup.defer(() => stream.close());
    return stream;
  }

  /** The frames' JSON payloads (ping comments are not frames). */
  get events(): StreamEvent[] {
    return this.frames.map((frame) => JSON.parse(frame.data) as StreamEvent);
  }

  get comments(): readonly string[] {
    return this.commentLines;
  }

  /** The id of the last frame read, a head frame included (what a reconnect sends as Last-Event-ID). */
  get lastEventId(): string | undefined {
    return this.lastId;
  }

  /** Everything received so far, as sent (a test looks for the `retry:` line here). */
  get text(): string {
    return this.raw;
  }

  /** Waits until `count` head frames were read; resolves the last of them. */
  async head(count = 1): Promise<SseFrame> {
    return this.until(() => this.heads[count - 1], `head frame ${count}`);
  }

  /** Resolves once the server ended the response (the stream's own end, not a client close). */
  async untilEnded(): Promise<void> {
    await this.until(() => this.ended || undefined, 'the stream to end');
  }

  /** The whole body as text (a refused request's JSON error). */
  async errorBody(): Promise<unknown> {
    await this.until(() => this.ended || undefined, 'the response to end');
    return JSON.parse(this.raw) as unknown;
  }

  private raw = '';

  /** Waits until `probe` returns something (re-checked after every frame, comment or end). */
  async until<T>(probe: () => T | undefined, what: string): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined) return value;
      if (this.ended)
        throw new Error(
          `the stream ended while waiting for ${what}${this.failure instanceof Error ? `: ${this.failure.message}` : ''}`,
        );
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`timed out waiting for ${what}; got ${this.frames.map((f) => f.event).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.add(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the first event after index `from` that matches; resolves it. */
  async next(match: (event: StreamEvent) => boolean, what: string, from = 0): Promise<StreamEvent> {
    return this.until(() => this.events.slice(from).find(match), what);
  }

  /** Waits until `count` frames were read; resolves them all. */
  async count(count: number): Promise<StreamEvent[]> {
    return this.until(() => (this.frames.length >= count ? this.events : undefined), `${count} frames`);
  }

  close(): void {
    this.controller.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body) {
        const text = decoder.decode(chunk, { stream: true });
        this.raw += text;
        for (const frame of this.parser.push(text)) {
          (frame.event === STREAM_HEAD ? this.heads : this.frames).push(frame);
          this.order.push(frame.event);
          this.lastId = frame.id;
        }
        this.notify();
      }
    } catch (error) {
      this.failure = error;
    }
    this.ended = true;
    this.notify();
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
    this.waiters.clear();
  }
}
