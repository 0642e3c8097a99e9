import fc from 'fast-check';
import { AppError, TASK_STATES, type TaskState } from '@kandev/protocol';
import { decideTaskStateChange, refusedStateChange, TASK_STATE_TRANSITIONS } from './task-state-change';

const state = fc.constantFrom(...TASK_STATES);

describe('decideTaskStateChange', () => {
  // The whole table, written out: a change to TASK_STATE_TRANSITIONS must change this test too.
  test.each<[TaskState, TaskState, 'unchanged' | 'move' | 'refused']>([
    ['todo', 'todo', 'unchanged'],
    ['todo', 'in_progress', 'move'],
    ['todo', 'review', 'refused'],
    ['todo', 'done', 'move'],
    ['in_progress', 'todo', 'move'],
    ['in_progress', 'in_progress', 'unchanged'],
    ['in_progress', 'review', 'move'],
    ['in_progress', 'done', 'move'],
    ['review', 'todo', 'refused'],
    ['review', 'in_progress', 'move'],
    ['review', 'review', 'unchanged'],
    ['review', 'done', 'move'],
    ['done', 'todo', 'move'],
    ['done', 'in_progress', 'move'],
    ['done', 'review', 'refused'],
    ['done', 'done', 'unchanged'],
  ])('%s → %s is %s', (from, to, kind) => {
    expect(decideTaskStateChange(from, to).kind).toBe(kind);
  });

  test('a move is allowed exactly when the table lists it, and names both states', () => {
    fc.assert(
      fc.property(state, state, (from, to) => {
        const decision = decideTaskStateChange(from, to);
        const listed = (TASK_STATE_TRANSITIONS[from] as readonly TaskState[]).includes(to);
        if (from === to) return decision.kind === 'unchanged';
        if (decision.kind === 'unchanged') return false;
        return decision.from === from && decision.to === to && (decision.kind === 'move') === listed;
      }),
    );
  });

  test('every state can reach every other state through allowed moves (no dead end)', () => {
    fc.assert(
      fc.property(state, state, (from, to) => {
        const seen = new Set<TaskState>([from]);
        const frontier: TaskState[] = [from];
        while (frontier.length > 0) {
          const at = frontier.pop() as TaskState;
          for (const next of TASK_STATE_TRANSITIONS[at]) {
            if (!seen.has(next)) {
              seen.add(next);
              frontier.push(next);
            }
          }
        }
        return seen.has(to);
      }),
    );
  });

  test('a refusal is a failed_precondition naming from, to and the allowed states', () => {
    const decision = decideTaskStateChange('todo', 'review');
    if (decision.kind !== 'refused') throw new Error('expected a refusal');
    const error = refusedStateChange('t1', decision);
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('failed_precondition');
    expect(error.message).toContain('from todo to review');
    expect(error.details).toEqual({ from: 'todo', to: 'review', allowed: ['in_progress', 'done'] });
  });
});
