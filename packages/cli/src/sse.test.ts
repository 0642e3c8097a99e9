import { SseParser } from './sse';

describe('SseParser', () => {
  test('frames split anywhere give the same events; comments are skipped; data lines join', () => {
    const text =
      ': ping\n\nid: 7\nevent: message.created\ndata: {"a":1}\n\n' +
      'id: 8\r\nevent: reset\r\ndata: x\r\ndata: y\r\n\r\n';
    const whole = new SseParser().push(text);
    expect(whole).toEqual([
      { id: '7', event: 'message.created', data: '{"a":1}' },
      { id: '8', event: 'reset', data: 'x\ny' },
    ]);
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      expect([...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))]).toEqual(whole);
    }
  });

  test('an event without a type is "message"; the last id carries over', () => {
    const parser = new SseParser();
    expect(parser.push('id: 3\ndata: a\n\ndata: b\n\n')).toEqual([
      { id: '3', event: 'message', data: 'a' },
      { id: '3', event: 'message', data: 'b' },
    ]);
  });
});
