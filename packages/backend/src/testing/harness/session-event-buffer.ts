// The fake agentctl's session events: numbered in one sequence, recorded, and sent in order to whoever
// attached, or buffered while nobody is (as the real one keeps them for the next Attach).
import type { SessionEvent, SessionEventBody } from '@kandev/protocol';

/** The one time the fake reports for everything it stamps (events, turns, sessions). */
export const HELD_AT = '2026-11-30T10:00:00.000Z';

export class SessionEventBuffer {
  /** Every event emitted, in order. */
  readonly emitted: SessionEvent[] = [];
  private sink: ((event: SessionEvent) => void) | undefined;
  private readonly buffered: SessionEvent[] = [];
  private seq = 0;

  /** The backend attaches (the latest wins): events buffered meanwhile are flushed to it, in order. */
  attach(sink: (event: SessionEvent) => void): void {
    this.sink = sink;
    for (const event of this.buffered.splice(0)) sink(event);
  }

  /** The backend went away: events are kept until the next attach. */
  detach(): void {
    this.sink = undefined;
  }

  emit(sessionId: string, body: SessionEventBody): void {
    const event: SessionEvent = { ...body, sessionId, seq: ++this.seq, occurredAt: HELD_AT };
    this.emitted.push(event);
    if (this.sink === undefined) this.buffered.push(event);
    else this.sink(event);
  }
}
