import fc from 'fast-check';
import { canonicalJson } from '@kandev/protocol';
import { AGENT_SESSION_STATES } from '../sessions/agent-session';
import { isEnded } from '../sessions/session-lifecycle';
import { askParentQuestionTool, TASK_STATES } from '@kandev/protocol';
import {
  askRefusal,
  canMove,
  PARENT_QUESTION_STATUSES,
  type ParentQuestionStatus,
  parentQuestionCallKey,
  staleReasonOf,
} from './parent-question';
import { decideReply, type ReplyInput } from './parent-reply-decision';

const statusArb = fc.constantFrom(...PARENT_QUESTION_STATUSES);

describe('parent question lifecycle', () => {
  test('only a pending question moves, to answered, superseded or stale; nothing moves back', () => {
    for (const from of PARENT_QUESTION_STATUSES) {
      for (const to of PARENT_QUESTION_STATUSES) {
        expect({ from, to, allowed: canMove(from, to) }).toEqual({
          from,
          to,
          allowed: from === 'pending' && to !== 'pending',
        });
      }
    }
  });

  test('compare-and-set: whatever writers race, the first move wins and the status never changes again', () => {
    fc.assert(
      fc.property(fc.array(statusArb, { maxLength: 20 }), (attempts) => {
        let status: ParentQuestionStatus = 'pending';
        const won: ParentQuestionStatus[] = [];
        for (const to of attempts) {
          if (canMove(status, to)) {
            status = to;
            won.push(to);
          }
        }
        expect(won.length).toBeLessThanOrEqual(1);
        const first = attempts.find((to) => to !== 'pending');
        expect(status).toBe(first ?? 'pending');
      }),
    );
  });
});

describe('the stale rule', () => {
  const question = { childSessionTokenHash: 'h1' };
  const live = { state: 'waiting_for_input' as const, mcpTokenHash: 'h1' };
  const task = { archivedAt: null, state: 'in_progress' as const };

  test.each([
    ['the task is gone', { task: undefined, session: live }, 'task_deleted'],
    [
      'the task is archived',
      { task: { ...task, archivedAt: '2026-12-01T00:00:00.000Z' }, session: live },
      'task_archived',
    ],
    ['the task is done', { task: { ...task, state: 'done' as const }, session: live }, 'task_done'],
    ['the session is gone', { task, session: undefined }, 'session_missing'],
    ['the session ended', { task, session: { ...live, state: 'failed' as const } }, 'session_ended'],
    [
      'the session was resumed since',
      { task, session: { ...live, state: 'starting' as const, mcpTokenHash: 'h2' } },
      'session_resumed',
    ],
    ['a live session of the same incarnation', { task, session: live }, null],
    ['a running session', { task, session: { ...live, state: 'running' as const } }, null],
  ] as const)('%s -> %s', (_name, facts, expected) => {
    expect(staleReasonOf(question, facts)).toBe(expected);
  });

  test('pending only while the task is there and open and the same session incarnation is live (fast-check)', () => {
    const factsArb = fc.record({
      task: fc.option(
        fc.record({
          archivedAt: fc.option(fc.constant('2026-12-01T00:00:00.000Z'), { nil: null }),
          state: fc.constantFrom(...TASK_STATES),
        }),
        { nil: undefined },
      ),
      session: fc.option(
        fc.record({ state: fc.constantFrom(...AGENT_SESSION_STATES), mcpTokenHash: fc.constantFrom('h1', 'h2') }),
        { nil: undefined },
      ),
    });
    fc.assert(
      fc.property(factsArb, (facts) => {
        const stillPending =
          facts.task !== undefined &&
          facts.task.archivedAt === null &&
          facts.task.state !== 'done' &&
          facts.session !== undefined &&
          !isEnded(facts.session.state) &&
          facts.session.mcpTokenHash === 'h1';
        expect(staleReasonOf(question, facts) === null).toBe(stillPending);
      }),
    );
  });
});

describe('reply acceptance', () => {
  const base: ReplyInput = {
    questionId: 'q1',
    question: { id: 'q1', childTaskId: 'kid', status: 'pending', closedReason: null, answeredAt: null },
    targetTaskId: 'kid',
    targetParentId: 'me',
    senderTaskId: 'me',
  };

  test('the current direct parent answers a pending question of the recorded child', () => {
    expect(decideReply(base)).toEqual({ kind: 'accept' });
  });

  test.each([
    ['an unknown question', { question: undefined }, 'not_found', /no parent question q1/],
    ['the wrong child', { targetTaskId: 'other' }, 'failed_precondition', /asked by task kid, not by task other/],
    ['a former parent (reparented)', { targetParentId: 'new' }, 'permission_denied', /current direct parent/],
    ['a task that never was the parent', { senderTaskId: 'stranger' }, 'permission_denied', /is not$/],
    [
      'a superseded question',
      { question: { ...base.question!, status: 'superseded' as const, closedReason: 'operator_prompt' as const } },
      'failed_precondition',
      /superseded \(operator_prompt\), no longer pending/,
    ],
    [
      'a stale question',
      { question: { ...base.question!, status: 'stale' as const, closedReason: 'session_ended' as const } },
      'failed_precondition',
      /stale \(session_ended\)/,
    ],
  ] as const)('rejects %s', (_name, change, code, message) => {
    const decision = decideReply({ ...base, ...change });
    expect(decision).toEqual({ kind: 'reject', code, message: expect.stringMatching(message) });
  });

  test('an answered question: already_answered, nothing to deliver', () => {
    const answered = { ...base.question!, status: 'answered' as const, answeredAt: '2026-12-01T00:00:00.000Z' };
    expect(decideReply({ ...base, question: answered })).toEqual({
      kind: 'already_answered',
      answeredAt: '2026-12-01T00:00:00.000Z',
    });
  });

  test('accepted exactly when every condition holds (fast-check)', () => {
    const ids = fc.constantFrom('kid', 'me', 'other', 'new');
    const inputArb = fc.record({
      questionId: fc.constant('q1'),
      question: fc.option(
        fc.record({
          id: fc.constant('q1'),
          childTaskId: ids,
          status: statusArb,
          closedReason: fc.constant(null),
          answeredAt: fc.constant(null),
        }),
        { nil: undefined },
      ),
      targetTaskId: ids,
      targetParentId: fc.option(ids, { nil: null }),
      senderTaskId: ids,
    });
    fc.assert(
      fc.property(inputArb, (input) => {
        const q = input.question;
        const addressed =
          q !== undefined && q.childTaskId === input.targetTaskId && input.targetParentId === input.senderTaskId;
        const kind = decideReply(input).kind;
        expect(kind === 'accept').toBe(addressed && q.status === 'pending');
        expect(kind === 'already_answered').toBe(addressed && q.status === 'answered');
      }),
    );
  });
});

describe('the tool-call identity', () => {
  const args = { questions: [{ prompt: 'Which?', options: [{ label: 'a' }, { label: 'b' }] }], blocked_reason: 'x' };

  test('the same session, turn and arguments (in any key order) are the same call', () => {
    const reordered = {
      blocked_reason: 'x',
      questions: [{ options: [{ label: 'a' }, { label: 'b' }], prompt: 'Which?' }],
    };
    const key = parentQuestionCallKey({ sessionId: 's', turnPromptId: 'p', args });
    expect(parentQuestionCallKey({ sessionId: 's', turnPromptId: 'p', args: reordered })).toBe(key);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
  });

  test('another session, another turn or other arguments are another call', () => {
    const key = parentQuestionCallKey({ sessionId: 's', turnPromptId: 'p', args });
    expect(parentQuestionCallKey({ sessionId: 's2', turnPromptId: 'p', args })).not.toBe(key);
    expect(parentQuestionCallKey({ sessionId: 's', turnPromptId: 'p2', args })).not.toBe(key);
    expect(parentQuestionCallKey({ sessionId: 's', turnPromptId: null, args })).not.toBe(key);
    expect(
      parentQuestionCallKey({ sessionId: 's', turnPromptId: 'p', args: { ...args, blocked_reason: 'y' } }),
    ).not.toBe(key);
  });

  test('canonical JSON ignores key order and undefined members, keeps array order (fast-check)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
      }),
    );
    expect(canonicalJson({ a: undefined, b: [2, 1] })).toBe('{"b":[2,1]}');
  });
});

describe('who may ask', () => {
  test.each([
    // Whether the session is served the tool (capability, launched as a root) is the catalogue's
    // check: packages/protocol/src/tools/tool-access.test.ts.
    ['an autopilot child', { id: 'c', autopilot: true, parentId: 'p' }, null],
    ['a normal task', { id: 'c', autopilot: false, parentId: 'p' }, /not an autopilot task/],
    ['an autopilot root', { id: 'c', autopilot: true, parentId: null }, /no parent to ask/],
  ] as const)('%s', (_name, caller, expected) => {
    const refusal = askRefusal(caller);
    if (expected === null) expect(refusal).toBeNull();
    else expect(refusal?.message).toMatch(expected);
  });

  test('the arguments: the operator tool questions plus a short blocked_reason, nothing else', () => {
    const ok = (value: unknown) => askParentQuestionTool.input.safeParse(value).success;
    expect(ok({ questions: [{ prompt: 'x' }], blocked_reason: 'deploy target' })).toBe(true);
    expect(ok({ questions: [{ prompt: 'x' }] })).toBe(false);
    expect(ok({ questions: [{ prompt: 'x' }], blocked_reason: ' ' })).toBe(false);
    expect(ok({ questions: [{ prompt: 'x' }], blocked_reason: 'x'.repeat(201) })).toBe(false);
    expect(ok({ questions: [{ prompt: 'x' }], blocked_reason: 'b', task_id: 't' })).toBe(false);
    expect(ok({ questions: [], blocked_reason: 'b' })).toBe(false);
  });
});
