import type { SessionEvent } from '@kandev/protocol';
import { EventOutbox, MERGED_TEXT_MAX } from './event-outbox';

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

  test('streamed text of one run waits as one event; another run, prompt or session stays apart', () => {
    const outbox = new EventOutbox(10);
    const text = (seq: number, t: string, fields: { segment?: number; promptId?: string; sessionId?: string } = {}) =>
      outbox.push({
        kind: 'agent_message',
        promptId: fields.promptId ?? 'p1',
        segment: fields.segment ?? 1,
        text: t,
        sessionId: fields.sessionId ?? 's',
        seq,
        occurredAt: '2026-01-01T00:00:00.000Z',
      });
    text(1, 'Hel');
    text(2, 'lo');
    text(3, ' again', { segment: 2 });
    text(4, 'x', { segment: 2, sessionId: 'other' });
    text(5, 'whole', { segment: 0 });
    text(6, 'run', { segment: 0 });
    const events: SessionEvent[] = [];
    for (let e = outbox.shift(); e !== undefined; e = outbox.shift()) events.push(e);
    expect(events.map((e) => (e.kind === 'agent_message' ? [e.seq, e.text] : []))).toEqual([
      [1, 'Hello'],
      [3, ' again'],
      [4, 'x'],
      [5, 'whole'],
      [6, 'run'],
    ]);
  });

  test('a run grows only to a bounded size', () => {
    const outbox = new EventOutbox(10);
    for (const seq of [1, 2, 3]) {
      outbox.push({
        kind: 'agent_message',
        promptId: 'p1',
        segment: 1,
        text: 'y'.repeat(MERGED_TEXT_MAX / 2),
        sessionId: 's',
        seq,
        occurredAt: '2026-01-01T00:00:00.000Z',
      });
    }
    expect(outbox.size).toBe(2);
  });
});
