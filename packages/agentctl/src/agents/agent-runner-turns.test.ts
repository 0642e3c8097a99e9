import { FakeAcpConnection, FULL_CAPABILITIES } from '../testing/fake-acp-connection';
import { flush, NOW, setup, started } from '../testing/agent-runner-harness';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('AgentRunner turns', () => {
  test('a turn: turn_started, joined message, tool call notices, flushed message, turn_ended', async () => {
    const t = await started();
    const record = t.runner.prompt('p1', 'Do the task');
    expect(record).toEqual({
      promptId: 'p1',
      status: 'running',
      stopReason: null,
      error: null,
      startedAt: NOW.toISOString(),
      endedAt: null,
    });
    expect(t.conn().prompts.map((p) => [p.acpSessionId, p.text])).toEqual([['acp-1', 'Do the task']]);
    expect(t.runner.state()).toMatchObject({ status: 'prompting', currentPromptId: 'p1' });
    t.conn().update({ kind: 'message_chunk', text: 'Reading ' });
    t.conn().update({ kind: 'message_chunk', text: 'the task.' });
    t.conn().update({
      kind: 'tool_call',
      toolCallId: 'c1',
      title: 'get_task_kandev',
      status: 'in_progress',
      inputJson: '{}',
    });
    t.conn().update({ kind: 'tool_call', toolCallId: 'c1', status: 'completed', outputText: 'task-1' });
    t.conn().update({ kind: 'message_chunk', text: 'Done.' });
    t.conn().endPrompt('end_turn');
    await flush();
    const call = {
      kind: 'tool_call',
      promptId: 'p1',
      toolCallId: 'c1',
      title: 'get_task_kandev',
      toolKind: '',
      inputJson: '{}',
      diffs: [],
    };
    expect(t.events.slice(1)).toEqual([
      { kind: 'turn_started', promptId: 'p1' },
      { kind: 'agent_message', promptId: 'p1', segment: 1, text: 'Reading the task.' },
      { ...call, status: 'in_progress', outputText: '' },
      { ...call, status: 'completed', outputText: 'task-1' },
      { kind: 'agent_message', promptId: 'p1', segment: 2, text: 'Done.' },
      {
        kind: 'turn_ended',
        turn: { ...record, status: 'completed', stopReason: 'end_turn', endedAt: NOW.toISOString() },
      },
    ]);
    expect(t.runner.state()).toMatchObject({
      status: 'ready',
      currentPromptId: null,
      turns: [{ promptId: 'p1', status: 'completed' }],
    });
    expect(t.ledger.get('p1')?.status).toBe('completed');
  });

  test('a prompt accepted while starting is delivered right after the handshake', async () => {
    const t = setup({}, { configure: (c) => (c.initializeAnswer = FakeAcpConnection.deferred()) });
    t.runner.start();
    await flush();
    expect(t.runner.prompt('p1', 'early').status).toBe('running');
    expect(t.runner.state()).toMatchObject({ status: 'starting', currentPromptId: 'p1' });
    expect(t.conn().prompts).toEqual([]);
    t.conn().initializeAnswer?.resolve({ ...FULL_CAPABILITIES, loadSession: false });
    await flush();
    expect(t.kinds()).toEqual(['agent_started', 'turn_started']);
    expect(t.conn().prompts.map((p) => p.text)).toEqual(['early']);
  });

  test('one turn at a time: another prompt while one runs (or waits) is failed_precondition', async () => {
    const t = await started();
    t.runner.prompt('p1', 'first');
    expect(() => t.runner.prompt('p2', 'second')).toThrow(
      expect.objectContaining({ code: 'failed_precondition', message: expect.stringContaining('p1') }) as Error,
    );
    expect(t.conn().prompts).toHaveLength(1);
    expect(t.ledger.get('p2')).toBeUndefined();
    t.conn().endPrompt();
    await flush();
    t.runner.prompt('p2', 'second');
    expect(t.conn().prompts).toHaveLength(2);
  });

  test('a failed session/prompt fails the turn; the agent takes the next prompt', async () => {
    const t = await started();
    t.runner.prompt('p1', 'x');
    t.conn().failPrompt('session/prompt failed: Internal error');
    await flush();
    expect(t.events.at(-1)).toEqual({
      kind: 'turn_ended',
      turn: expect.objectContaining({
        promptId: 'p1',
        status: 'failed',
        error: 'session/prompt failed: Internal error',
      }) as unknown,
    });
    expect(t.runner.state().status).toBe('ready');
  });

  test('updates outside a turn, or for another ACP session, are not output', async () => {
    const t = await started();
    t.conn().update({ kind: 'message_chunk', text: 'stray' });
    t.runner.prompt('p1', 'x');
    t.conn().update({ kind: 'message_chunk', text: 'other session' }, 'acp-other');
    t.conn().endPrompt();
    await flush();
    expect(t.kinds()).toEqual(['agent_started', 'turn_started', 'turn_ended']);
  });
});

describe('AgentRunner cancel', () => {
  test('cancel sends session/cancel once; the turn ends completed with stop reason cancelled', async () => {
    const t = await started();
    expect(t.runner.cancel()).toEqual({ cancelled: false, promptId: null });
    t.runner.prompt('p1', 'x');
    expect(t.runner.cancel()).toEqual({ cancelled: true, promptId: 'p1' });
    expect(t.runner.cancel()).toEqual({ cancelled: true, promptId: 'p1' });
    expect(t.conn().cancels).toEqual(['acp-1']);
    t.conn().endPrompt('cancelled');
    await flush();
    expect(t.events.at(-1)).toMatchObject({
      kind: 'turn_ended',
      turn: { status: 'completed', stopReason: 'cancelled' },
    });
    expect(t.runner.cancel()).toEqual({ cancelled: false, promptId: null });
  });

  test('cancelling a prompt still waiting for the handshake ends it at once; it is never delivered', async () => {
    const t = setup({}, { configure: (c) => (c.initializeAnswer = FakeAcpConnection.deferred()) });
    t.runner.start();
    t.runner.prompt('p1', 'early');
    expect(t.runner.cancel()).toEqual({ cancelled: true, promptId: 'p1' });
    await flush();
    t.conn().initializeAnswer?.resolve({ ...FULL_CAPABILITIES, loadSession: false });
    await flush();
    expect(t.kinds()).toEqual(['turn_ended', 'agent_started']);
    expect(t.events[0]).toMatchObject({ turn: { promptId: 'p1', status: 'completed', stopReason: 'cancelled' } });
    expect(t.conn().prompts).toEqual([]);
  });
});
