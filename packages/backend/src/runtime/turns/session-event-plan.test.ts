import fc from 'fast-check';
import {
  AGENT_NOTICE_CODES,
  AGENT_NOTICE_LEVELS,
  type SessionEvent,
  SYSTEM_PROMPT_DELIVERIES,
  type TurnRecord,
} from '@kandev/protocol';
import { AGENT_SESSION_STATES } from '../sessions/agent-session';
import { canTransition, nextState } from '../sessions/session-lifecycle';
import {
  type EventContext,
  type EventPlan,
  planAgentGone,
  planSessionEvent,
  planTurnEnded,
} from './session-event-plan';

const HEAD = { sessionId: 's', seq: 1, occurredAt: '2026-12-01T00:00:00.000Z' };
const RUNNING: EventContext = { state: 'running', dispatchedPromptId: 'p1' };
const IDLE: EventContext = { state: 'waiting_for_input', dispatchedPromptId: null };
const NOTHING: EventPlan = {
  acpSessionId: null,
  prompt: null,
  fact: null,
  lastError: null,
  warning: null,
  record: null,
  kick: false,
};

function turn(promptId: string, status: TurnRecord['status'], extra: Partial<TurnRecord> = {}): TurnRecord {
  return { promptId, status, stopReason: null, error: null, startedAt: 'a', endedAt: null, ...extra };
}

const exited = (exitCode: number | null, expected = false): SessionEvent => ({
  ...HEAD,
  kind: 'agent_exited',
  exitCode,
  signal: null,
  reason: `exited with code ${exitCode}`,
  expected,
});

describe('planSessionEvent', () => {
  test('agent_started: the ACP session id is kept, the session becomes ready, the queue is kicked', () => {
    const plan = planSessionEvent(
      {
        ...HEAD,
        kind: 'agent_started',
        pid: 7,
        acpSessionId: 'acp-1',
        loaded: true,
        modeId: 'default',
        systemPromptDelivery: 'spec_append',
        mcpConnected: true,
      },
      {
        state: 'starting',
        dispatchedPromptId: null,
      },
    );
    expect(plan).toMatchObject({ acpSessionId: 'acp-1', fact: { kind: 'agent_ready' }, kick: true, prompt: null });
  });

  test('turn_started marks running only for the prompt in flight', () => {
    expect(planSessionEvent({ ...HEAD, kind: 'turn_started', promptId: 'p1' }, RUNNING).fact).toEqual({
      kind: 'turn_started',
    });
    expect(planSessionEvent({ ...HEAD, kind: 'turn_started', promptId: 'old' }, RUNNING).fact).toBeNull();
  });

  test.each<[string, SessionEvent, EventPlan['record']]>([
    ['streamed text', { ...HEAD, kind: 'agent_message', promptId: 'p1', segment: 2, text: 'hi' }, 'agent_message'],
    [
      'a whole run of text',
      { ...HEAD, kind: 'agent_message', promptId: 'p1', segment: 0, text: 'hi' },
      'agent_message',
    ],
    [
      'a tool call',
      {
        ...HEAD,
        kind: 'tool_call',
        promptId: 'p1',
        toolCallId: 't',
        title: 'x',
        status: 'pending',
        toolKind: 'edit',
        inputJson: '',
        outputText: '',
        diffs: [{ path: 'a.ts', oldText: null, newText: 'x', truncated: false }],
      },
      'tool_call',
    ],
    ['a plan', { ...HEAD, kind: 'plan', promptId: 'p1', entries: [] }, 'plan'],
  ])('agent output (%s) is recorded and changes no state', (_name, event, record) => {
    expect(planSessionEvent(event, RUNNING)).toEqual({ ...NOTHING, record });
  });

  test('a warning notice sets the last error with no state change; an info notice is only recorded', () => {
    const notice = (level: 'info' | 'warning'): SessionEvent => ({
      ...HEAD,
      kind: 'agent_notice',
      code: level === 'warning' ? 'mcp_not_connected' : 'tools_reloaded',
      level,
      message: `a ${level}`,
    });
    expect(planSessionEvent(notice('warning'), IDLE)).toEqual({
      ...NOTHING,
      record: 'agent_notice',
      warning: 'a warning',
    });
    expect(planSessionEvent(notice('warning'), { state: 'starting', dispatchedPromptId: null }).warning).toBe(
      'a warning',
    );
    expect(planSessionEvent(notice('info'), RUNNING)).toEqual({ ...NOTHING, record: 'agent_notice' });
    // An ended session keeps the reason it ended with.
    expect(planSessionEvent(notice('warning'), { state: 'failed', dispatchedPromptId: null }).warning).toBeNull();
  });

  test('turn_ended of the prompt in flight: it finishes and the session waits for input (kick)', () => {
    const completed = planTurnEnded(turn('p1', 'completed', { stopReason: 'end_turn' }), RUNNING);
    expect(completed).toMatchObject({
      prompt: { id: 'p1', outcome: { status: 'completed', stopReason: 'end_turn', warning: null } },
      fact: { kind: 'turn_finished' },
      kick: true,
    });
    // A completed turn's error is a warning about it: the prompt keeps it.
    const warned = planTurnEnded(turn('p1', 'completed', { stopReason: 'end_turn', error: 'no MCP' }), RUNNING);
    expect(warned.prompt).toEqual({
      id: 'p1',
      outcome: { status: 'completed', stopReason: 'end_turn', warning: 'no MCP' },
    });
    expect(warned.warning).toBeNull();
    const failed = planTurnEnded(turn('p1', 'failed', { error: 'boom' }), RUNNING);
    expect(failed.prompt).toEqual({ id: 'p1', outcome: { status: 'failed', error: 'boom' } });
  });

  test('turn_ended of an older prompt (a resume failed it) leaves the current turn alone', () => {
    const plan = planTurnEnded(turn('old', 'failed', { error: 'killed' }), RUNNING);
    expect(plan).toMatchObject({ prompt: { id: 'old' }, fact: null, kick: false });
  });

  test('a running turn record changes nothing', () => {
    expect(planTurnEnded(turn('p1', 'running'), RUNNING)).toMatchObject({ prompt: null, fact: null, kick: false });
  });

  test('agent_exited: expected changes nothing; a crash fails the session and the prompt in flight', () => {
    expect(planSessionEvent(exited(null, true), RUNNING)).toMatchObject({ fact: null, prompt: null, record: null });
    expect(planSessionEvent(exited(137), RUNNING)).toEqual({
      acpSessionId: null,
      prompt: { id: 'p1', outcome: { status: 'failed', error: 'agent exited: exited with code 137' } },
      fact: { kind: 'agent_exited', idleCleanExit: false },
      lastError: 'exited with code 137',
      warning: null,
      record: 'agent_exit',
      kick: false,
    });
  });

  test('exit code 0 between turns completes the session (no last error); inside a turn it fails it', () => {
    expect(planSessionEvent(exited(0), IDLE)).toMatchObject({
      fact: { kind: 'agent_exited', idleCleanExit: true },
      lastError: null,
    });
    expect(planSessionEvent(exited(0), RUNNING)).toMatchObject({
      fact: { kind: 'agent_exited', idleCleanExit: false },
      lastError: 'exited with code 0',
    });
  });

  test('a lost session fails with its prompt in flight', () => {
    const gone = { kind: 'lost' as const, reason: 'gone; resume it', promptError: 'gone', cleanExit: true };
    expect(planAgentGone(gone, RUNNING)).toMatchObject({
      prompt: { id: 'p1', outcome: { status: 'failed', error: 'gone' } },
      fact: { kind: 'lost' },
      lastError: 'gone; resume it',
    });
  });

  test('whatever the event and state, the planned fact only moves along allowed transitions (fast-check)', () => {
    const eventArb = fc.oneof(
      fc.record({
        kind: fc.constant('agent_started' as const),
        pid: fc.nat(),
        acpSessionId: fc.string(),
        loaded: fc.boolean(),
        modeId: fc.option(fc.string(), { nil: null }),
        systemPromptDelivery: fc.constantFrom(...SYSTEM_PROMPT_DELIVERIES),
        mcpConnected: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('turn_started' as const), promptId: fc.constantFrom('p1', 'p2') }),
      fc.record({
        kind: fc.constant('turn_ended' as const),
        turn: fc.record({
          promptId: fc.constantFrom('p1', 'p2'),
          status: fc.constantFrom('running' as const, 'completed' as const, 'failed' as const),
          stopReason: fc.constant(null),
          error: fc.constant(null),
          startedAt: fc.constant('a'),
          endedAt: fc.constant(null),
        }),
      }),
      fc.record({
        kind: fc.constant('agent_exited' as const),
        exitCode: fc.option(fc.integer({ min: 0, max: 255 }), { nil: null }),
        signal: fc.constant(null),
        reason: fc.constant('r'),
        expected: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant('agent_notice' as const),
        code: fc.constantFrom(...AGENT_NOTICE_CODES),
        level: fc.constantFrom(...AGENT_NOTICE_LEVELS),
        message: fc.string(),
      }),
    );
    const ctxArb = fc.record({
      state: fc.constantFrom(...AGENT_SESSION_STATES),
      dispatchedPromptId: fc.constantFrom(null, 'p1'),
    });
    fc.assert(
      fc.property(eventArb, ctxArb, (body, ctx) => {
        const plan = planSessionEvent({ ...HEAD, ...body }, ctx);
        const to = plan.fact === null ? null : nextState(ctx.state, plan.fact);
        if (to !== null) expect(canTransition(ctx.state, to)).toBe(true);
        // Only a prompt of this session's turn is ever failed by an exit: the one in flight.
        if (body.kind === 'agent_exited' && plan.prompt !== null) expect(plan.prompt.id).toBe(ctx.dispatchedPromptId);
        // A warning never comes with a state change (that records its own last error).
        if (plan.warning !== null) expect(plan.fact).toBeNull();
      }),
    );
  });
});
