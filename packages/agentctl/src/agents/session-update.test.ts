import { PLAN_ENTRIES_MAX, parseSessionUpdate } from './session-update';

describe('parseSessionUpdate', () => {
  test('agent message text chunk', () => {
    expect(
      parseSessionUpdate({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }),
    ).toEqual({ kind: 'message_chunk', text: 'Hello' });
  });

  test('tool_call and tool_call_update become tool call updates', () => {
    for (const sessionUpdate of ['tool_call', 'tool_call_update']) {
      expect(parseSessionUpdate({ sessionUpdate, toolCallId: 'c1', status: 'completed' })).toMatchObject({
        kind: 'tool_call',
        toolCallId: 'c1',
        status: 'completed',
      });
    }
  });

  test('a plan: every entry, unknown priorities and statuses read as medium and pending', () => {
    expect(
      parseSessionUpdate({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the code', priority: 'high', status: 'completed' },
          { content: 'Fix it', priority: 'urgent', status: 'started' },
        ],
      }),
    ).toEqual({
      kind: 'plan',
      entries: [
        { content: 'Read the code', priority: 'high', status: 'completed' },
        { content: 'Fix it', priority: 'medium', status: 'pending' },
      ],
    });
  });

  test('a plan is bounded', () => {
    const entries = Array.from({ length: PLAN_ENTRIES_MAX + 5 }, (_, i) => ({
      content: `step ${i}`,
      priority: 'low',
      status: 'pending',
    }));
    const plan = parseSessionUpdate({ sessionUpdate: 'plan', entries });
    expect(plan?.kind === 'plan' && plan.entries.length).toBe(PLAN_ENTRIES_MAX);
  });

  test.each([
    ['a thought', { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }],
    ['a user message replayed', { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }],
    ['usage', { sessionUpdate: 'usage_update', used: 1, size: 2 }],
    ['an image chunk', { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA', mimeType: 'x' } }],
    ['a tool call without id', { sessionUpdate: 'tool_call', title: 't' }],
    ['a plan without entries', { sessionUpdate: 'plan' }],
    ['garbage', 'not an object'],
  ])('%s is ignored', (_name, update) => {
    expect(parseSessionUpdate(update)).toBeNull();
  });
});
