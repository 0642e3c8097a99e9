import type { NewEvent } from '../events/event-types';
import type { CommitHooks } from '../store/unit-of-work';
import { commitHooksOver, eventWakeupsOver, InProcessReplicaSignals, signalsOfEvents } from './replica-signals';

const event = (type: NewEvent['type'], data: Record<string, unknown> = {}): NewEvent => ({
  type,
  taskId: 't',
  sessionId: null,
  data,
  at: '2026-12-02T00:00:00.000Z',
});

describe('signalsOfEvents', () => {
  test('nothing committed: no signal', () => {
    expect(signalsOfEvents([])).toEqual([]);
  });

  test("'events' once, and each question and parent question by id, once each", () => {
    const signals = signalsOfEvents([
      event('task.updated'),
      event('question.created', { question: { id: 'q1' } }),
      event('question.answered', { question: { id: 'q1' } }),
      event('parent_question.closed', { question: { id: 'p1' } }),
      event('question.closed', { question: {} }),
    ]);
    expect(signals).toEqual([
      { name: 'events', payload: '' },
      { name: 'question', payload: 'q1' },
      { name: 'parent_question', payload: 'p1' },
    ]);
  });
});

describe('InProcessReplicaSignals', () => {
  test('delivers to the listeners of that name; unsubscribed ones and a throwing one stop nobody', () => {
    const errors: unknown[] = [];
    const signals = new InProcessReplicaSignals('r1', (err) => errors.push(err));
    const seen: string[] = [];
    signals.subscribe('question', {
      signal: () => {
        throw new Error('listener failed');
      },
      resync: () => undefined,
    });
    const off = signals.subscribe('question', { signal: (id) => seen.push(`a:${id}`), resync: () => undefined });
    signals.subscribe('question', { signal: (id) => seen.push(`b:${id}`), resync: () => undefined });
    signals.subscribe('parent_question', { signal: (id) => seen.push(`p:${id}`), resync: () => undefined });
    signals.publish('question', 'q1');
    off();
    signals.publish('question', 'q2');
    expect(seen).toEqual(['a:q1', 'b:q1', 'b:q2']);
    expect(errors).toHaveLength(2);
    expect(signals.listenerCount('question')).toBe(2);
  });

  test('one process: only this replica is alive', async () => {
    const signals = new InProcessReplicaSignals('r1');
    await expect(signals.isAlive('r1')).resolves.toBe(true);
    await expect(signals.isAlive('r0')).resolves.toBe(false);
    await expect(signals.alive()).resolves.toEqual(['r1']);
  });

  test('a committed unit of work wakes the event streams and the question holders', () => {
    const signals = new InProcessReplicaSignals('r1');
    const wakes: string[] = [];
    const off = eventWakeupsOver(signals).subscribe(() => wakes.push('stream'));
    signals.subscribe('question', { signal: (id) => wakes.push(id), resync: () => undefined });
    const hooks = commitHooksOver(signals);
    hooks.afterCommit([event('question.answered', { question: { id: 'q7' } })]);
    hooks.committed([event('question.answered', { question: { id: 'q8' } })]);
    off();
    hooks.afterCommit([event('task.updated')]);
    expect(wakes).toEqual(['stream', 'q7', 'stream', 'q8']);
  });

  test('one process: a transaction has no one else to tell, so it sends nothing before its COMMIT', () => {
    const hooks = commitHooksOver(new InProcessReplicaSignals('r1'));
    const trx = {} as Parameters<CommitHooks['beforeCommit']>[0];
    expect(hooks.beforeCommit(trx, [event('question.answered', { question: { id: 'q7' } })])).toBeUndefined();
  });
});
