import type { TurnRecord } from '@kandev/protocol';
import { PromptLedger } from './prompt-ledger';

const turn = (promptId: string, status: TurnRecord['status'] = 'running'): TurnRecord => ({
  promptId,
  status,
  stopReason: null,
  error: null,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: null,
});

describe('PromptLedger', () => {
  test('remembers records by prompt id; an update replaces the record in place', () => {
    const ledger = new PromptLedger(3);
    ledger.put(turn('a'));
    ledger.put(turn('b'));
    ledger.put({ ...turn('a'), status: 'completed', stopReason: 'end_turn' });
    expect(ledger.get('a')).toMatchObject({ status: 'completed', stopReason: 'end_turn' });
    expect(ledger.size).toBe(2);
  });

  test('beyond capacity the oldest prompt ids are forgotten', () => {
    const ledger = new PromptLedger(2);
    for (const id of ['a', 'b', 'c']) ledger.put(turn(id));
    expect([ledger.get('a'), ledger.get('b')?.promptId, ledger.get('c')?.promptId]).toEqual([undefined, 'b', 'c']);
  });
});
