import type { SessionEvent } from '@kandev/protocol';

/** Session events kept while no backend is attached (oldest dropped beyond this). */
export const EVENT_OUTBOX_CAPACITY = 10_000;

/** Longest text a waiting agent_message grows to by taking the next ones of its run. */
export const MERGED_TEXT_MAX = 64 * 1024;

/**
 * Streamed text of one run may wait as one event: appending `next` to `last` says the same (the
 * backend appends both to the run's entry) and keeps a long answer from crowding out other events.
 */
function merged(last: SessionEvent | undefined, next: SessionEvent): SessionEvent | undefined {
  if (last?.kind !== 'agent_message' || next.kind !== 'agent_message') return undefined;
  const sameRun = last.sessionId === next.sessionId && last.promptId === next.promptId && last.segment === next.segment;
  if (!sameRun || last.segment === 0 || last.text.length + next.text.length > MERGED_TEXT_MAX) return undefined;
  return { ...last, text: last.text + next.text };
}

/** A bounded FIFO of session events (a ring buffer: pushing onto a full outbox drops the oldest). */
export class EventOutbox {
  private readonly slots: (SessionEvent | undefined)[];
  private head = 0;
  private count = 0;

  constructor(private readonly capacity = EVENT_OUTBOX_CAPACITY) {
    this.slots = new Array<SessionEvent | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Appends (streamed text onto the newest event of its run); returns the event dropped to make room, if any. */
  push(event: SessionEvent): SessionEvent | undefined {
    const newest = (this.head + this.count - 1) % this.capacity;
    const joined = this.count === 0 ? undefined : merged(this.slots[newest], event);
    if (joined !== undefined) {
      this.slots[newest] = joined;
      return undefined;
    }
    let dropped: SessionEvent | undefined;
    if (this.count === this.capacity) {
      dropped = this.shift();
    }
    this.slots[(this.head + this.count) % this.capacity] = event;
    this.count += 1;
    return dropped;
  }

  peek(): SessionEvent | undefined {
    return this.count === 0 ? undefined : this.slots[this.head];
  }

  shift(): SessionEvent | undefined {
    if (this.count === 0) return undefined;
    const event = this.slots[this.head];
    this.slots[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count -= 1;
    return event;
  }
}
