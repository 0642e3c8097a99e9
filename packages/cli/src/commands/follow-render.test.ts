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
      event('session.state_changed', { state: 'failed', previous_state: 'running', error: 'agentctl lost' }),
      'session a1e95f39: running → failed (agentctl lost)',
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

  test('a finished tool call: its kind, input, first output lines and changed files, bounded', () => {
    const output = ['line 1', 'line 2', '', 'line 3', 'line 4', 'line 5'].join('\n');
    const diffs = [
      { path: 'src/new.ts', old_text: null, new_text: 'x', truncated: false },
      ...['a', 'b', 'c', 'd', 'e', 'f'].map((name) => ({ path: `${name}.ts`, old_text: 'o', new_text: 'n' })),
    ];
    const call = (status: string) =>
      event('message.updated', {
        message: {
          id: 'm',
          task_id: 't1',
          session_id: null,
          created_at: 'x',
          type: 'tool_call',
          author: 'agent',
          content: 'Run tests',
          metadata: { status, kind: 'execute', input: { command: 'npm test' }, output, diffs },
        },
      });
    expect(renderEvent(plain, call('in_progress'))).toEqual([
      '20:29:49 tool Run tests [execute] (in_progress) {"command":"npm test"}',
    ]);
    expect(renderEvent(plain, call('completed'))).toEqual([
      '20:29:49 tool Run tests [execute] (completed) {"command":"npm test"}',
      '  │ line 1',
      '  │ line 2',
      '  │ line 3',
      '  │ … 2 more lines',
      '  + src/new.ts',
      '  ~ a.ts',
      '  ~ b.ts',
      '  ~ c.ts',
      '  ~ d.ts',
      '  … 2 more files',
    ]);
  });

  test('a plan as its checklist; a notice like a session event, with its level', () => {
    const entry = (fields: Record<string, unknown>) =>
      event('message.created', {
        message: { id: 'm', task_id: 't1', session_id: null, created_at: 'x', author: 'agent', ...fields },
      });
    const plan = entry({ type: 'plan', content: '[x] Read\n[ ] Fix', metadata: { entries: [] } });
    expect(renderEvent(plain, plan)).toEqual(['20:29:49 plan:', '  [x] Read', '  [ ] Fix']);
    const notice = entry({
      type: 'session_event',
      content: 'no MCP tools',
      metadata: { event: 'agent_notice', code: 'mcp_not_connected', level: 'warning' },
    });
    expect(renderEvent(plain, notice)).toEqual(['20:29:49 session event (warning): no MCP tools']);
    const exit = entry({
      type: 'session_event',
      content: 'The agent exited: code 1',
      metadata: { event: 'agent_exited' },
    });
    expect(renderEvent(plain, exit)).toEqual(['20:29:49 session event: The agent exited: code 1']);
  });

  test('colour only when the output wants it', () => {
    const [line] = renderEvent({ ...plain, colour: true }, event('queue.changed', { depth: 1 }));
    expect(line).toContain('\u001b[2m');
  });
});
