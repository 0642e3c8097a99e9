import fc from 'fast-check';
import { AGENT_SESSION_STATES, type AgentSessionState } from './agent-session';
import {
  assertTransition,
  canResume,
  canTransition,
  ENDED_SESSION_STATES,
  isEnded,
  isLive,
  nextState,
  SESSION_TRANSITIONS,
  type SessionFact,
} from './session-lifecycle';

const FACTS: readonly SessionFact[] = [
  { kind: 'launching' },
  { kind: 'accepted', hasAgent: true },
  { kind: 'accepted', hasAgent: false },
  { kind: 'agent_ready' },
  { kind: 'turn_started' },
  { kind: 'turn_finished' },
  { kind: 'agent_exited', idleCleanExit: true },
  { kind: 'agent_exited', idleCleanExit: false },
  { kind: 'start_failed' },
  { kind: 'lost' },
  { kind: 'stopped' },
  { kind: 'resumed' },
];

const stateArb = fc.constantFrom(...AGENT_SESSION_STATES);
const factArb = fc.constantFrom(...FACTS);

/** Runs facts from `start`, recording every state change. */
function run(start: AgentSessionState, facts: readonly SessionFact[]) {
  let state = start;
  const moves: { from: AgentSessionState; to: AgentSessionState; fact: SessionFact }[] = [];
  for (const fact of facts) {
    const to = nextState(state, fact);
    if (to !== null) {
      moves.push({ from: state, to, fact });
      state = to;
    }
  }
  return { state, moves };
}

describe('session transitions table', () => {
  test.each([
    ['created', ['starting', 'failed', 'cancelled']],
    ['starting', ['waiting_for_input', 'running', 'failed', 'cancelled']],
    ['running', ['waiting_for_input', 'failed', 'cancelled', 'completed', 'starting']],
    ['waiting_for_input', ['running', 'starting', 'failed', 'cancelled', 'completed']],
    ['completed', ['starting']],
    ['failed', ['starting']],
    ['cancelled', ['starting']],
  ] as const)('%s may become exactly %j', (from, targets) => {
    const allowed = AGENT_SESSION_STATES.filter((to) => canTransition(from, to));
    expect([...allowed].sort()).toEqual([...targets].sort());
    expect(SESSION_TRANSITIONS[from]).toEqual(targets);
  });

  test('nothing ever goes back to created; live and ended partition the rest', () => {
    for (const from of AGENT_SESSION_STATES) expect(canTransition(from, 'created')).toBe(false);
    const rest = AGENT_SESSION_STATES.filter((s) => s !== 'created');
    expect(rest.every((s) => isLive(s) !== isEnded(s))).toBe(true);
  });

  test('assertTransition refuses a forbidden move as an internal error', () => {
    expect(() => assertTransition('failed', 'running')).toThrow(/failed cannot become running/);
    expect(() => assertTransition('waiting_for_input', 'running')).not.toThrow();
  });

  test('resume only from a session that ran or ended', () => {
    expect(AGENT_SESSION_STATES.filter(canResume)).toEqual([
      'running',
      'waiting_for_input',
      'completed',
      'failed',
      'cancelled',
    ]);
  });
});

describe('facts over random sequences (fast-check)', () => {
  test('every state change is an allowed transition', () => {
    fc.assert(
      fc.property(stateArb, fc.array(factArb, { maxLength: 60 }), (start, facts) => {
        for (const move of run(start, facts).moves) expect(canTransition(move.from, move.to)).toBe(true);
      }),
    );
  });

  test('an ended session changes only through a resume, and only to starting', () => {
    fc.assert(
      fc.property(fc.array(factArb, { maxLength: 60 }), (facts) => {
        for (const move of run('created', facts).moves) {
          if ((ENDED_SESSION_STATES as readonly AgentSessionState[]).includes(move.from)) {
            expect(move).toMatchObject({ fact: { kind: 'resumed' }, to: 'starting' });
          }
        }
      }),
    );
  });

  test('every fact is idempotent: the same fact twice changes nothing more', () => {
    fc.assert(
      fc.property(stateArb, factArb, (state, fact) => {
        const once = nextState(state, fact) ?? state;
        expect(nextState(once, fact)).toBeNull();
      }),
    );
  });

  test('a session is running only after a turn started, and waits for input only once agentctl took it', () => {
    fc.assert(
      fc.property(fc.array(factArb, { maxLength: 60 }), (facts) => {
        for (const move of run('created', facts).moves) {
          if (move.to === 'running') expect(move.fact.kind).toBe('turn_started');
          if (move.to === 'waiting_for_input') {
            expect(['accepted', 'agent_ready', 'turn_finished']).toContain(move.fact.kind);
          }
          if (move.to === 'completed') expect(move).toMatchObject({ from: 'waiting_for_input' });
        }
      }),
    );
  });
});

describe('nextState', () => {
  test.each([
    ['created', { kind: 'launching' }, 'starting'],
    ['starting', { kind: 'accepted', hasAgent: false }, 'waiting_for_input'],
    ['starting', { kind: 'accepted', hasAgent: true }, null],
    ['starting', { kind: 'agent_ready' }, 'waiting_for_input'],
    ['waiting_for_input', { kind: 'turn_started' }, 'running'],
    ['running', { kind: 'turn_started' }, null],
    ['running', { kind: 'turn_finished' }, 'waiting_for_input'],
    ['starting', { kind: 'turn_finished' }, null],
    ['running', { kind: 'agent_exited', idleCleanExit: true }, 'failed'],
    ['waiting_for_input', { kind: 'agent_exited', idleCleanExit: true }, 'completed'],
    ['waiting_for_input', { kind: 'agent_exited', idleCleanExit: false }, 'failed'],
    ['cancelled', { kind: 'agent_exited', idleCleanExit: false }, null],
    ['starting', { kind: 'start_failed' }, 'failed'],
    ['running', { kind: 'start_failed' }, null],
    ['waiting_for_input', { kind: 'lost' }, 'failed'],
    ['created', { kind: 'stopped' }, 'cancelled'],
    ['failed', { kind: 'stopped' }, null],
    ['failed', { kind: 'resumed' }, 'starting'],
    ['starting', { kind: 'resumed' }, null],
  ] as const)('%s + %j -> %s', (state, fact, expected) => {
    expect(nextState(state, fact)).toBe(expected);
  });
});
