import type { AgentUpdate } from './acp-connection';
import { MESSAGE_FLUSH_AT, TurnOutput } from './turn-output';

const chunk = (text: string): AgentUpdate => ({ kind: 'message_chunk', text });

describe('TurnOutput', () => {
  test('chunks are joined into one message, flushed by a tool call notice and at the end', () => {
    const output = new TurnOutput('p1');
    const events = [
      ...output.apply(chunk('Looking ')),
      ...output.apply(chunk('at it.')),
      ...output.apply({
        kind: 'tool_call',
        toolCallId: 'c1',
        title: 'get_task_kandev',
        status: 'in_progress',
        inputJson: '{}',
      }),
      ...output.apply(chunk('Done')),
      ...output.apply(chunk('.')),
      ...output.flush(),
    ];
    expect(events).toEqual([
      { kind: 'agent_message', promptId: 'p1', text: 'Looking at it.' },
      {
        kind: 'tool_call',
        promptId: 'p1',
        toolCallId: 'c1',
        title: 'get_task_kandev',
        status: 'in_progress',
        inputJson: '{}',
        outputText: '',
      },
      { kind: 'agent_message', promptId: 'p1', text: 'Done.' },
    ]);
    expect(output.flush()).toEqual([]);
  });

  test('a tool call update keeps the first title and input, takes the new status and output', () => {
    const output = new TurnOutput('p1');
    output.apply({ kind: 'tool_call', toolCallId: 'c1', title: 'first', status: 'pending', inputJson: '{"a":1}' });
    const [notice] = output.apply({
      kind: 'tool_call',
      toolCallId: 'c1',
      title: 'renamed',
      status: 'completed',
      outputText: 'ok',
    });
    expect(notice).toEqual({
      kind: 'tool_call',
      promptId: 'p1',
      toolCallId: 'c1',
      title: 'first',
      status: 'completed',
      inputJson: '{"a":1}',
      outputText: 'ok',
    });
  });

  test('an update for an unseen call starts pending with empty fields', () => {
    expect(new TurnOutput('p1').apply({ kind: 'tool_call', toolCallId: 'c9' })).toEqual([
      {
        kind: 'tool_call',
        promptId: 'p1',
        toolCallId: 'c9',
        title: '',
        status: 'pending',
        inputJson: '',
        outputText: '',
      },
    ]);
  });

  test('a very long message goes out in bounded pieces, nothing lost', () => {
    const output = new TurnOutput('p1');
    const text = 'x'.repeat(MESSAGE_FLUSH_AT + 5);
    const events = [...output.apply(chunk(text)), ...output.flush()];
    expect(events.map((e) => (e.kind === 'agent_message' ? e.text.length : -1))).toEqual([MESSAGE_FLUSH_AT, 5]);
  });
});
