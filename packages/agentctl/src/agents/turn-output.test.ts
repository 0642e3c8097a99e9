import type { AgentUpdate } from './acp-connection';
import { MESSAGE_FLUSH_AT, TurnOutput } from './turn-output';

const chunk = (text: string): AgentUpdate => ({ kind: 'message_chunk', text });
const call = (fields: Partial<Extract<AgentUpdate, { kind: 'tool_call' }>> & { toolCallId: string }): AgentUpdate => ({
  kind: 'tool_call',
  ...fields,
});

describe('TurnOutput', () => {
  test('text streams in runs: each flush appends to the current run; a tool call or plan starts the next', () => {
    const output = new TurnOutput('p1');
    const events = [
      ...output.apply(chunk('Looking ')),
      ...output.flush(),
      ...output.apply(chunk('at it.')),
      ...output.apply(call({ toolCallId: 'c1', title: 'get_task_kandev', status: 'in_progress', inputJson: '{}' })),
      ...output.apply(chunk('Planning.')),
      ...output.apply({ kind: 'plan', entries: [{ content: 'Fix it', priority: 'high', status: 'pending' }] }),
      ...output.apply(chunk('Done')),
      ...output.apply(chunk('.')),
      ...output.flush(),
    ];
    expect(events).toEqual([
      { kind: 'agent_message', promptId: 'p1', segment: 1, text: 'Looking ' },
      { kind: 'agent_message', promptId: 'p1', segment: 1, text: 'at it.' },
      {
        kind: 'tool_call',
        promptId: 'p1',
        toolCallId: 'c1',
        title: 'get_task_kandev',
        status: 'in_progress',
        toolKind: '',
        inputJson: '{}',
        outputText: '',
        diffs: [],
      },
      { kind: 'agent_message', promptId: 'p1', segment: 2, text: 'Planning.' },
      { kind: 'plan', promptId: 'p1', entries: [{ content: 'Fix it', priority: 'high', status: 'pending' }] },
      { kind: 'agent_message', promptId: 'p1', segment: 3, text: 'Done.' },
    ]);
    expect(output.flush()).toEqual([]);
  });

  test('tool calls between runs without text do not skip segment numbers', () => {
    const output = new TurnOutput('p1');
    output.apply(call({ toolCallId: 'c1' }));
    output.apply(call({ toolCallId: 'c2' }));
    output.apply(chunk('first text'));
    expect(output.flush()).toEqual([{ kind: 'agent_message', promptId: 'p1', segment: 1, text: 'first text' }]);
  });

  test('a tool call update keeps what it does not replace; the later, precise title wins', () => {
    const output = new TurnOutput('p1');
    output.apply(
      call({ toolCallId: 'c1', title: 'Terminal', status: 'pending', toolKind: 'execute', inputJson: '{"a":1}' }),
    );
    output.apply(
      call({
        toolCallId: 'c1',
        title: 'touch a.txt',
        diffs: [{ path: '/a', oldText: null, newText: 'x', truncated: false }],
      }),
    );
    const [notice] = output.apply(call({ toolCallId: 'c1', title: '', status: 'completed', outputText: 'ok' }));
    expect(notice).toEqual({
      kind: 'tool_call',
      promptId: 'p1',
      toolCallId: 'c1',
      title: 'touch a.txt',
      status: 'completed',
      toolKind: 'execute',
      inputJson: '{"a":1}',
      outputText: 'ok',
      diffs: [{ path: '/a', oldText: null, newText: 'x', truncated: false }],
    });
  });

  test('streamed terminal output is appended to the output', () => {
    const output = new TurnOutput('p1');
    output.apply(call({ toolCallId: 'c1', outputAppend: 'A\n' }));
    const [notice] = output.apply(call({ toolCallId: 'c1', outputAppend: 'B\n', status: 'completed' }));
    expect(notice).toMatchObject({ outputText: 'A\nB\n', status: 'completed' });
  });

  test('what a call is known to be (for a permission request about it)', () => {
    const output = new TurnOutput('p1');
    expect(output.toolCall('c1')).toBeUndefined();
    output.apply(
      call({ toolCallId: 'c1', title: 'mcp.kandev.get_task', mcpTool: { server: 'kandev', tool: 'get_task_kandev' } }),
    );
    output.apply(call({ toolCallId: 'c1', status: 'in_progress' }));
    expect(output.toolCall('c1')).toMatchObject({
      title: 'mcp.kandev.get_task',
      mcpTool: { server: 'kandev', tool: 'get_task_kandev' },
    });
  });

  test('a very long text goes out in bounded pieces of the same run, nothing lost', () => {
    const output = new TurnOutput('p1');
    const text = 'x'.repeat(MESSAGE_FLUSH_AT + 5);
    const events = [...output.apply(chunk(text)), ...output.flush()];
    expect(events.map((e) => (e.kind === 'agent_message' ? [e.segment, e.text.length] : []))).toEqual([
      [1, MESSAGE_FLUSH_AT],
      [1, 5],
    ]);
  });
});
