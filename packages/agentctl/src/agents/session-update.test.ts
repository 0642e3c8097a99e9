import { parseSessionUpdate, TOOL_TEXT_MAX } from './session-update';

describe('parseSessionUpdate', () => {
  test('agent message text chunk', () => {
    expect(
      parseSessionUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }),
    ).toEqual({ kind: 'message_chunk', text: 'Hello' });
  });

  test('tool_call: title, status, raw input as JSON', () => {
    expect(
      parseSessionUpdate({
        sessionUpdate: 'tool_call',
        toolCallId: 'c1',
        title: 'get_task_kandev',
        kind: 'other',
        status: 'in_progress',
        rawInput: { name: 'get_task_kandev', arguments: {} },
      }),
    ).toEqual({
      kind: 'tool_call',
      toolCallId: 'c1',
      title: 'get_task_kandev',
      status: 'in_progress',
      inputJson: '{"name":"get_task_kandev","arguments":{}}',
      outputText: undefined,
    });
  });

  test('tool_call_update: text content joined, other content and missing fields left out', () => {
    expect(
      parseSessionUpdate({
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c1',
        status: 'completed',
        content: [
          { type: 'content', content: { type: 'text', text: 'line 1' } },
          { type: 'diff', path: '/a', newText: 'x' },
          { type: 'content', content: { type: 'text', text: 'line 2' } },
        ],
        rawOutput: { ok: true },
      }),
    ).toEqual({
      kind: 'tool_call',
      toolCallId: 'c1',
      title: undefined,
      status: 'completed',
      inputJson: undefined,
      outputText: 'line 1\nline 2',
    });
  });

  test('long tool output is cut', () => {
    const update = parseSessionUpdate({
      sessionUpdate: 'tool_call_update',
      toolCallId: 'c1',
      content: [{ type: 'content', content: { type: 'text', text: 'x'.repeat(TOOL_TEXT_MAX + 10) } }],
    });
    expect(update?.kind === 'tool_call' && update.outputText?.endsWith('…[truncated]')).toBe(true);
  });

  test.each([
    ['a thought', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }],
    ['a user message replayed', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }],
    ['a plan', { sessionUpdate: 'plan', entries: [] }],
    ['an image chunk', { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA', mimeType: 'x' } }],
    ['a tool call without id', { sessionUpdate: 'tool_call', title: 't' }],
    ['a tool call with an unknown status', { sessionUpdate: 'tool_call', toolCallId: 'c', status: 'exploded' }],
    ['garbage', 'not an object'],
  ])('%s is ignored', (_name, update) => {
    expect(parseSessionUpdate(update)).toBeNull();
  });
});
