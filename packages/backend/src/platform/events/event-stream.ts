import type { Request, Response } from 'express';
import { AppError } from '@kandev/protocol';
import type { EventStore } from './event-store';
import type { EventWakeups } from './event-notifier';
import { type EventFilter, RESET_EVENT, STREAM_HEAD_EVENT, toEventView } from './event-types';

/** Events read per query while a stream catches up. */
const BATCH = 500;

/**
 * The `retry:` hint sent with the head frame: how long an EventSource waits before it reconnects. Long
 * enough that a restarting backend is not hammered, short enough that a dropped stream resumes quickly.
 */
export const STREAM_RETRY_MS = 3_000;

export interface EventStreamOptions {
  /** A `: ping` comment this often keeps proxies and clients from timing the stream out. */
  pingMs: number;
  /** More open streams than this: 503. */
  maxStreams: number;
}

export interface EventStreamDeps extends EventStreamOptions {
  /** The log, read outside any transaction. */
  events: EventStore;
  wakeups: EventWakeups;
  /** A stream that failed to read (logged by the caller); the stream is ended. */
  onError?: (error: unknown) => void;
  /**
   * How each stream ended (the metrics): `closed` by the client or at shutdown, `failed` (a read
   * failed, the backend ended it), `refused` (too many open; never opened).
   */
  onEnd?: (how: EventStreamEnd) => void;
}

export type EventStreamEnd = 'closed' | 'failed' | 'refused';

/**
 * Who may keep a stream open (the credential that opened it): `watch` is told of each stream as it opens
 * and calls `end` once the stream may no longer run; the release it returns is called when it closes.
 */
export interface StreamGuard {
  watch(res: Response, end: () => void): () => void;
}

/** Where a stream starts: after an id the client gave (replay), or at the newest event (now). */
export interface StreamStart {
  filter: EventFilter;
  resumeAfter?: number;
}

function frame(id: number, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** `reset`: events the client is owed are gone; it reloads through REST, the stream goes on from `latest`. */
function resetFrame(latest: number, oldest: number | null, filter: EventFilter): string {
  const view = {
    id: String(latest),
    type: RESET_EVENT,
    at: new Date().toISOString(),
    task_id: filter.taskId ?? null,
    session_id: filter.sessionId ?? null,
    data: { oldest_id: oldest === null ? null : String(oldest) },
  };
  return frame(latest, RESET_EVENT, view);
}

/**
 * Every open SSE stream on /api/events. A stream subscribes to the wake-ups first, then replays from
 * its cursor up to the head, sends the head frame and goes on reading from the table on each wake-up,
 * so an event committed between the replay and the subscription is never missed: the table is the only
 * source, a wake-up only a nudge.
 */
export class EventStreams {
  private readonly open = new Set<Response>();

  constructor(private readonly deps: EventStreamDeps) {}

  get openCount(): number {
    return this.open.size;
  }

  async serve(req: Request, res: Response, start: StreamStart, guard?: StreamGuard): Promise<void> {
    if (this.open.size >= this.deps.maxStreams) {
      this.deps.onEnd?.('refused');
      throw new AppError(
        'unavailable',
        `too many event streams are open (${this.deps.maxStreams}, KANDEV_EVENT_MAX_STREAMS); close one and retry`,
      );
    }
    const missing = await this.deps.events.missingTarget(start.filter);
    if (missing !== undefined) throw new AppError('not_found', `${missing} not found`);
    this.open.add(res);
    let closed = false;
    let failed = false;
    const unsubscribe = this.deps.wakeups.subscribe(() => void pump());
    const ping = setInterval(() => void write(': ping\n\n'), this.deps.pingMs);
    ping.unref();
    let release = (): void => undefined;
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      unsubscribe();
      release();
      this.open.delete(res);
      this.deps.onEnd?.(failed ? 'failed' : 'closed');
    };
    req.on('close', close);
    res.on('close', close);
    // The credential that opened the stream was revoked: end it (the client sees the response end).
    if (guard !== undefined) {
      release = guard.watch(res, () => {
        close();
        res.end();
      });
    }

    // A slow client is written to no faster than it reads.
    const write = async (text: string) => {
      if (closed || res.write(text)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    };

    let cursor = 0;
    // Until the start cursor is known a wake-up only asks for another read: a pump from cursor 0 would
    // replay the whole log ahead of the replay or reset.
    let reading = true;
    let again = false;
    const pump = async (): Promise<void> => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          cursor = await this.readOn(start, cursor, undefined, write, () => !closed);
        } while (again && !closed);
      } catch (error) {
        this.deps.onError?.(error);
        failed = true;
        close();
        res.end();
      } finally {
        reading = false;
      }
    };

    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // The server's request timeout covers receiving the request only; nothing may cut the response.
    req.socket.setTimeout(0);
    res.flushHeaders();
    await write(': connected\n\n');

    cursor = await this.replayToHead(start, await this.startCursor(start, write), write, () => !closed);
    reading = false;
    await pump();
  }

  /**
   * Replays what matches up to the log's head, then sends the head frame (with the retry hint). The head
   * is read before the replay and the replay stops at it: an event committed later has a larger id (ids
   * follow commit order) and is sent by the live reads after the head frame, so resuming from the head
   * skips nothing. On an empty log the head is 0, which resumes from the first event. Resolves the
   * cursor the live reads continue from.
   */
  private async replayToHead(
    start: StreamStart,
    from: number,
    write: (text: string) => Promise<void>,
    isOpen: () => boolean,
  ): Promise<number> {
    const head = await this.deps.events.latestId();
    const cursor = await this.readOn(start, from, head, write, isOpen);
    await write(`retry: ${STREAM_RETRY_MS}\n${frame(head, STREAM_HEAD_EVENT, { head: String(head) })}`);
    return Math.max(cursor, head);
  }

  /**
   * Sends what matches after `from` (up to `upTo`), page by page; resolves the new cursor. Each page is
   * read with the log's extent in the same statement: when pruning dropped events past the cursor
   * before they were read (a stream far behind, or a prune between the start check and the replay), the
   * client gets a `reset` and the stream goes on from the newest id. A page short of BATCH holds every
   * matching event up to the newest id, so the cursor moves there: a filtered stream whose events are
   * rare never falls behind the pruned prefix.
   */
  private async readOn(
    start: StreamStart,
    from: number,
    upTo: number | undefined,
    write: (text: string) => Promise<void>,
    isOpen: () => boolean,
  ): Promise<number> {
    let cursor = from;
    for (;;) {
      const read = await this.deps.events.readAfter(cursor, start.filter, BATCH, upTo);
      if (read.oldestId !== null && cursor < read.oldestId - 1) {
        const latest = Math.min(read.newestId ?? cursor, upTo ?? Number.MAX_SAFE_INTEGER);
        await write(resetFrame(latest, read.oldestId, start.filter));
        return latest;
      }
      for (const event of read.events) {
        if (!isOpen()) return cursor;
        await write(frame(event.id, event.type, toEventView(event)));
        cursor = event.id;
      }
      if (read.events.length < BATCH || !isOpen()) {
        const reached = upTo === undefined ? read.newestId : Math.min(upTo, read.newestId ?? 0);
        return Math.max(cursor, reached ?? 0);
      }
    }
  }

  /** Ends every stream (shutdown: the HTTP server waits for open responses before it closes). */
  closeAll(): void {
    for (const res of [...this.open]) {
      this.open.delete(res);
      res.end();
    }
  }

  /**
   * Replay after the id given; one `reset` and then live when that id is older than the oldest event
   * retained (events in between were pruned) or newer than the newest (another log): the client
   * reloads its state through REST. The reset's id is where the stream continues.
   */
  private async startCursor(start: StreamStart, write: (text: string) => Promise<void>): Promise<number> {
    const latest = await this.deps.events.latestId();
    if (start.resumeAfter === undefined) return latest;
    const oldest = await this.deps.events.oldestId();
    const pruned = oldest !== null && start.resumeAfter < oldest - 1;
    if (!pruned && start.resumeAfter <= latest) return start.resumeAfter;
    await write(resetFrame(latest, oldest, start.filter));
    return latest;
  }
}
