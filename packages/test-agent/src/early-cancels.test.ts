import { EarlyCancels, incomingSessionMessage } from './early-cancels';

describe('EarlyCancels', () => {
  test('a cancel read after its prompt but handled first is kept for that prompt: its turn starts cancelled', () => {
    const cancels = new EarlyCancels();
    cancels.promptArrived('s');
    cancels.cancelArrived('s');
    expect(cancels.cancelHandled('s', false)).toBe('kept_for_prompt');
    expect(cancels.promptHandled('s')).toBe(true);
    // Consumed: the next prompt runs normally.
    cancels.promptArrived('s');
    expect(cancels.promptHandled('s')).toBe(false);
  });

  test('a cancel for the running turn cancels it', () => {
    const cancels = new EarlyCancels();
    cancels.promptArrived('s');
    expect(cancels.promptHandled('s')).toBe(false);
    cancels.cancelArrived('s');
    expect(cancels.cancelHandled('s', true)).toBe('cancel_running');
  });

  test('a cancel whose turn already ended is stale, also when the next prompt has started meanwhile', () => {
    const cancels = new EarlyCancels();
    cancels.promptArrived('s');
    cancels.promptHandled('s');
    cancels.cancelArrived('s'); // sent for prompt 1, whose turn ends before the handler runs
    cancels.promptArrived('s');
    expect(cancels.cancelHandled('s', false)).toBe('stale');
    expect(cancels.promptHandled('s')).toBe(false);

    cancels.cancelArrived('s'); // for prompt 2 ...
    cancels.promptArrived('s');
    cancels.promptHandled('s'); // ... but prompt 3 is running when the handler gets to it
    expect(cancels.cancelHandled('s', true)).toBe('stale');
  });

  test('a cancel read before any prompt is stale', () => {
    const cancels = new EarlyCancels();
    cancels.cancelArrived('s');
    cancels.promptArrived('s');
    expect(cancels.cancelHandled('s', false)).toBe('stale');
    expect(cancels.promptHandled('s')).toBe(false);
  });

  test('sessions are counted apart', () => {
    const cancels = new EarlyCancels();
    cancels.promptArrived('a');
    cancels.cancelArrived('a');
    cancels.promptArrived('b');
    expect(cancels.cancelHandled('a', false)).toBe('kept_for_prompt');
    expect(cancels.promptHandled('b')).toBe(false);
    expect(cancels.promptHandled('a')).toBe(true);
  });

  test('without observed arrivals it falls back to the running turn', () => {
    const cancels = new EarlyCancels();
    expect(cancels.cancelHandled('s', true)).toBe('cancel_running');
    expect(cancels.cancelHandled('s', false)).toBe('stale');
  });
});

describe('incomingSessionMessage', () => {
  test.each([
    [
      { jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's' } },
      { method: 'session/prompt', sessionId: 's' },
    ],
    [
      { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } },
      { method: 'session/cancel', sessionId: 's' },
    ],
    [{ jsonrpc: '2.0', id: 1, result: {} }, undefined],
    [{ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: 1 } }, undefined],
    [{ method: 'session/prompt', params: { sessionId: 7 } }, undefined],
    [null, undefined],
  ])('%j', (message, expected) => {
    expect(incomingSessionMessage(message)).toEqual(expected);
  });
});
