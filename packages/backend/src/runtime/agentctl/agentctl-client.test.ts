import { AppError, type WireProviderUpdateResultsOutput } from '@kandev/protocol';
import { promptAcceptedFromWire } from './agentctl-client';
import { providerUpdatesFromWire } from './provider-updates';

const UPDATE = { sessionId: 's1', providers: ['github' as const, 'gitlab' as const], revision: 3 };

function held(overrides: Record<string, unknown> = {}): WireProviderUpdateResultsOutput {
  const item = {
    session_id: 's1',
    outcome: 'held',
    held: {
      outcome: 'UPDATE_OUTCOME_APPLIED',
      tools_changed: true,
      revision: '3',
      providers: ['PROVIDER_GITHUB', 'PROVIDER_GITLAB'],
      tool_names: ['get_task_pr_automation_kandev'],
      ...overrides,
    },
  };
  return { results: [item] } as WireProviderUpdateResultsOutput;
}

describe('providerUpdatesFromWire', () => {
  test.each([
    ['UPDATE_OUTCOME_APPLIED', 'applied'],
    ['UPDATE_OUTCOME_UNCHANGED', 'unchanged'],
    ['UPDATE_OUTCOME_STALE', 'stale'],
  ] as const)('%s -> %s, with what agentctl holds', (wire, outcome) => {
    expect(providerUpdatesFromWire([UPDATE], held({ outcome: wire }))).toEqual([
      {
        ok: true,
        result: {
          outcome,
          toolsChanged: true,
          revision: 3,
          providers: ['github', 'gitlab'],
          toolNames: ['get_task_pr_automation_kandev'],
        },
      },
    ]);
  });

  test('a refused update is its own result, with its code (unknown codes are internal)', () => {
    const refusal = (code: string) =>
      ({ results: [{ session_id: 's1', outcome: 'error', error: { code, message: 'no' } }] }) as never;
    const [lost] = providerUpdatesFromWire([UPDATE], refusal('not_found'));
    expect(lost).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(providerUpdatesFromWire([UPDATE], refusal('bogus'))[0]).toMatchObject({ error: { code: 'internal' } });
  });

  test('an unspecified outcome, a missing result or one out of order is an internal error, never guessed', () => {
    expect(() => providerUpdatesFromWire([UPDATE], held({ outcome: 'UPDATE_OUTCOME_UNSPECIFIED' }))).toThrow(AppError);
    expect(() => providerUpdatesFromWire([UPDATE, UPDATE], held())).toThrow(/1 results for 2 updates/);
    expect(() => providerUpdatesFromWire([{ ...UPDATE, sessionId: 's2' }], held())).toThrow(/out of order/);
  });
});

describe('promptAcceptedFromWire', () => {
  test('the turn record, mapped, and whether agentctl had seen the prompt id', () => {
    const turn = {
      prompt_id: 'p1',
      status: 'TURN_STATUS_COMPLETED' as const,
      stop_reason: 'end_turn',
      error: '',
      started_at: 's',
      ended_at: 'e',
    };
    expect(promptAcceptedFromWire({ turn, duplicate: true })).toEqual({
      turn: { promptId: 'p1', status: 'completed', stopReason: 'end_turn', error: null, startedAt: 's', endedAt: 'e' },
      duplicate: true,
    });
  });

  test("no turn record is agentctl's fault, never guessed", () => {
    expect(() => promptAcceptedFromWire({ turn: null, duplicate: false })).toThrow(/no turn record/);
  });
});
