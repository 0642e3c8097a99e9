import fc from 'fast-check';
import { AGENT_SESSION_STATES } from '../sessions/agent-session';
import { decideDrain, type DrainInput } from './drain-decision';
import { newQueuedPrompt } from './queued-prompt';

const PROMPT = newQueuedPrompt({
  id: 'p1',
  taskId: 't',
  sessionId: 's',
  prompt: 'do it',
  source: 'operator',
  createdAt: '2026-12-01T00:00:00.000Z',
});

const ANSWER = { ...PROMPT, id: 'a1', priority: 'answer' as const };

const OPEN: DrainInput = {
  session: { state: 'waiting_for_input', hasAgent: true },
  inFlight: false,
  gateReason: null,
  next: PROMPT,
};

describe('decideDrain', () => {
  test('an idle agent with an open gate takes the oldest prompt', () => {
    expect(decideDrain(OPEN)).toEqual({ kind: 'dispatch', prompt: PROMPT });
  });

  test.each([
    ['a busy session', { session: { state: 'running', hasAgent: true } }, 'session is running'],
    ['a starting session', { session: { state: 'starting', hasAgent: true } }, 'session is starting'],
    ['a failed session', { session: { state: 'failed', hasAgent: true } }, 'session is failed'],
    ['an MCP-only session', { session: { state: 'waiting_for_input', hasAgent: false } }, 'no agent'],
    ['a prompt in flight', { inFlight: true }, 'in flight'],
    ['a closed gate', { gateReason: 'waiting for the parent' }, 'waiting for the parent'],
    ['an empty queue', { next: undefined }, 'no prompt is queued'],
  ] as const)('holds for %s', (_name, change, reason) => {
    const decision = decideDrain({ ...OPEN, ...change });
    expect(decision).toEqual({ kind: 'hold', reason: expect.stringContaining(reason) });
  });

  test("a parent's answer passes a closed gate; an ordinary prompt does not", () => {
    const gated = { ...OPEN, gateReason: 'waiting for the parent' };
    expect(decideDrain({ ...gated, next: ANSWER })).toEqual({ kind: 'dispatch', prompt: ANSWER });
    expect(decideDrain({ ...gated, next: PROMPT })).toEqual({ kind: 'hold', reason: 'waiting for the parent' });
    expect(decideDrain({ ...gated, next: undefined })).toEqual({ kind: 'hold', reason: 'waiting for the parent' });
    // Never past the one-turn-at-a-time rules, though.
    expect(decideDrain({ ...gated, next: ANSWER, inFlight: true }).kind).toBe('hold');
  });

  test('dispatches only when every condition holds (fast-check)', () => {
    const inputArb = fc.record({
      session: fc.record({ state: fc.constantFrom(...AGENT_SESSION_STATES), hasAgent: fc.boolean() }),
      inFlight: fc.boolean(),
      gateReason: fc.option(fc.string({ minLength: 1 }), { nil: null }),
      next: fc.option(fc.constantFrom(PROMPT, ANSWER), { nil: undefined }),
    });
    fc.assert(
      fc.property(inputArb, (input) => {
        const open =
          input.session.state === 'waiting_for_input' &&
          input.session.hasAgent &&
          !input.inFlight &&
          input.next !== undefined &&
          (input.gateReason === null || input.next.priority === 'answer');
        const decision = decideDrain(input);
        expect(decision.kind).toBe(open ? 'dispatch' : 'hold');
        if (decision.kind === 'dispatch') expect(decision.prompt).toBe(input.next);
      }),
    );
  });
});
