import type { SessionEvent } from '@kandev/protocol';

/** Session events kept while no backend is attached (oldest dropped beyond this). */
export const EVENT_OUTBOX_CAPACITY = 10_000;

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

  /** Appends; returns the event dropped to make room, if any. */
  push(event: SessionEvent): SessionEvent | undefined {
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
