import type { SessionEvent } from '@kandev/protocol';
import { EventOutbox } from './event-outbox';

const event = (seq: number): SessionEvent => ({
  kind: 'turn_started',
  promptId: `p${seq}`,
  sessionId: 's',
  seq,
  occurredAt: '2026-01-01T00:00:00.000Z',
});

function drain(outbox: EventOutbox): number[] {
  const seqs: number[] = [];
  for (let e = outbox.shift(); e !== undefined; e = outbox.shift()) seqs.push(e.seq);
  return seqs;
}

describe('EventOutbox', () => {
  test('first in, first out', () => {
    const outbox = new EventOutbox(5);
    [1, 2, 3].forEach((seq) => outbox.push(event(seq)));
    expect(outbox.peek()?.seq).toBe(1);
    expect(drain(outbox)).toEqual([1, 2, 3]);
    expect(outbox.size).toBe(0);
  });

  test('full: the oldest is dropped and returned, order kept across the wrap', () => {
    const outbox = new EventOutbox(3);
    const dropped = [1, 2, 3, 4, 5].map((seq) => outbox.push(event(seq))?.seq);
    expect(dropped).toEqual([undefined, undefined, undefined, 1, 2]);
    expect(drain(outbox)).toEqual([3, 4, 5]);
    outbox.push(event(6));
    expect(drain(outbox)).toEqual([6]);
  });
});
