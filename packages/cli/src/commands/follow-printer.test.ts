import { FollowPrinter } from './follow-printer';
import type { StreamEvent } from './follow-render';

const plain = { colour: false, line: () => undefined, json: () => undefined };

let nextId = 0;
function entry(type: 'message.created' | 'message.updated', fields: Record<string, unknown>): StreamEvent {
  const message = { task_id: 't1', session_id: 's1', author: 'agent', created_at: 'x', metadata: {}, ...fields };
  return {
    id: String(++nextId),
    type,
    at: '2026-12-01T20:29:49.123Z',
    task_id: 't1',
    session_id: 's1',
    data: { message },
  };
}
const text = (type: 'message.created' | 'message.updated', id: string, content: string) =>
  entry(type, { id, type: 'message', content, metadata: { prompt_id: 'p1', segment: 1 } });
const tool = (type: 'message.created' | 'message.updated', status: string) =>
  entry(type, { id: 'tc', type: 'tool_call', content: 'Read a.ts', metadata: { status, kind: 'read' } });

/** Everything the printer writes for these events, in order, as one text. */
function written(printer: FollowPrinter, events: StreamEvent[]): string {
  return events.map((event) => printer.print(event)).join('') + printer.close();
}

describe('FollowPrinter', () => {
  test('streamed text reads as one growing line: only what is new is written', () => {
    const printer = new FollowPrinter(plain);
    const out = written(printer, [
      text('message.created', 'm1', 'Let me '),
      text('message.updated', 'm1', 'Let me look'),
      text('message.updated', 'm1', 'Let me look'), // nothing new
      text('message.updated', 'm1', 'Let me look at it.'),
    ]);
    expect(out).toBe('20:29:49 agent: Let me look at it.\n');
  });

  test('another event ends the open line; the text goes on, on a line of its own', () => {
    const printer = new FollowPrinter(plain);
    const out = written(printer, [
      text('message.created', 'm1', 'Reading'),
      tool('message.created', 'pending'),
      text('message.updated', 'm1', 'Reading the file'),
      text('message.created', 'm2', 'Done'),
    ]);
    expect(out.split('\n')).toEqual([
      '20:29:49 agent: Reading',
      '20:29:49 tool Read a.ts [read] (pending)',
      '20:29:49 agent: … the file',
      '20:29:49 agent: Done',
      '',
    ]);
  });

  test('a stream joined halfway prints the text so far; a rewritten text is printed whole', () => {
    const printer = new FollowPrinter(plain);
    expect(printer.print(text('message.updated', 'm1', 'so far'))).toBe('20:29:49 agent: so far');
    expect(printer.print(text('message.updated', 'm1', 'another text'))).toBe('\n20:29:49 agent: another text');
  });

  test("a tool call's updates print only when its status moves", () => {
    const printer = new FollowPrinter(plain);
    const out = written(printer, [
      tool('message.created', 'pending'),
      tool('message.updated', 'pending'), // its output grew: not printed
      tool('message.updated', 'completed'),
    ]);
    expect(out).toBe('20:29:49 tool Read a.ts [read] (pending)\n20:29:49 tool Read a.ts [read] (completed)\n');
  });

  test('a whole run of text (segment 0) and other events print as lines', () => {
    const printer = new FollowPrinter(plain);
    const whole = entry('message.created', { id: 'm', type: 'message', content: 'hi', metadata: { segment: 0 } });
    expect(printer.print(whole)).toBe('20:29:49 agent: hi\n');
    expect(printer.close()).toBe('');
  });
});
