import { renderEvent, type StreamEvent } from './follow-render';

const plain = { colour: false, line: () => undefined, json: () => undefined };
const event = (type: string, data: Record<string, unknown>): StreamEvent => ({
  id: '1',
  type,
  at: '2026-12-01T20:29:49.123Z',
  task_id: 't1',
  session_id: 'a1e95f39-cbe1-43c4-8b1e-4f9d8d2129cf',
  data,
});
const question = {
  id: 'q1',
  questions: [{ prompt: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] }],
  answers: null,
};

describe('renderEvent', () => {
  test.each([
    [
      event('session.state_changed', { state: 'running', previous_state: 'waiting_for_input' }),
      'session a1e95f39: waiting_for_input → running',
    ],
    [
      event('tools.changed', { revision: 2, providers: ['github'], added: ['a_kandev'], removed: ['b_kandev'] }),
      'tools revision 2 (providers github): +a_kandev −b_kandev',
    ],
    [event('question.created', { question }), 'question q1 created: Which database? [SQLite | Postgres]'],
    [
      event('question.answered', { question: { ...question, answers: [{ option: 'Postgres' }] } }),
      'question q1 answered: Postgres',
    ],
    [
      event('parent_question.answered', { question: { id: 'p1', answer: { text: 'Use Redis' } } }),
      'parent question p1 answered: Use Redis',
    ],
    [
      event('task.updated', { task: { id: 't1', title: 'Importer', state: 'in_progress' } }),
      'task Importer updated (in_progress)',
    ],
    [event('queue.changed', { depth: 2 }), 'queue depth 2'],
    [event('something.new', { x: 1 }), 'something.new {"x":1}'],
  ])('%#: %j', (input, expected) => {
    expect(renderEvent(plain, input)).toEqual([`20:29:49 ${expected}`]);
  });

  test('conversation entries: who and what, a tool call with its status, multi-line text kept', () => {
    const message = (fields: Record<string, unknown>) =>
      event('message.created', {
        message: { id: 'm', task_id: 't1', session_id: null, metadata: {}, created_at: 'x', ...fields },
      });
    expect(renderEvent(plain, message({ type: 'message', author: 'agent', content: 'one\ntwo' }))).toEqual([
      '20:29:49 agent: one',
      'two',
    ]);
    const tool = message({
      type: 'tool_call',
      author: 'agent',
      content: 'get_task_kandev',
      metadata: { status: 'completed' },
    });
    expect(renderEvent(plain, tool)).toEqual(['20:29:49 tool get_task_kandev (completed)']);
  });

  test('colour only when the output wants it', () => {
    const [line] = renderEvent({ ...plain, colour: true }, event('queue.changed', { depth: 1 }));
    expect(line).toContain('\u001b[2m');
  });
});
