import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ToolOutcome } from './mcp-link';
import type { TurnBody } from './script';
import { runTurn, type TurnIo } from './turn-runner';

class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fakeIo(tools: Record<string, ToolOutcome | Error> = {}) {
  const updates: SessionUpdate[] = [];
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  let cancelled = false;
  let cancel: () => void = () => undefined;
  let ids = 0;
  const io: TurnIo = {
    update: (update) => {
      updates.push(update);
      return Promise.resolve();
    },
    callTool: (name, args) => {
      calls.push({ name, args });
      const outcome = tools[name];
      if (outcome === undefined) return Promise.reject(new Error(`unknown tool ${name}`));
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    },
    cancelled: new Promise<void>((resolve) => {
      cancel = () => {
        cancelled = true;
        resolve();
      };
    }),
    isCancelled: () => cancelled,
    exit: (code) => {
      throw new ExitCalled(code);
    },
    nextToolCallId: () => `call-${++ids}`,
  };
  return { io, updates, calls, cancel: () => cancel() };
}

const turn = (steps: TurnBody['steps'], stop_reason: TurnBody['stop_reason'] = 'end_turn'): TurnBody => ({
  steps,
  stop_reason,
});

describe('runTurn', () => {
  test('tool calls report tool_call then tool_call_update (completed or failed), replies are chunks', async () => {
    const { io, updates, calls } = fakeIo({
      ok: { isError: false, text: 'fine', raw: { content: [] } },
      bad: { isError: true, text: 'nope', raw: { isError: true } },
    });
    const stop = await runTurn(
      turn([
        { kind: 'call_tool', name: 'ok', arguments: { a: 1 } },
        { kind: 'call_tool', name: 'bad', arguments: {} },
        { kind: 'reply', text: 'done' },
      ]),
      io,
    );
    expect(stop).toBe('end_turn');
    expect(calls).toEqual([
      { name: 'ok', args: { a: 1 } },
      { name: 'bad', args: {} },
    ]);
    expect(updates.map((u) => [u.sessionUpdate, 'status' in u ? u.status : undefined])).toEqual([
      ['tool_call', 'in_progress'],
      ['tool_call_update', 'completed'],
      ['tool_call', 'in_progress'],
      ['tool_call_update', 'failed'],
      ['agent_message_chunk', undefined],
    ]);
    expect(updates[1]).toMatchObject({
      toolCallId: 'call-1',
      content: [{ type: 'content', content: { type: 'text', text: 'fine' } }],
    });
    expect(updates[3]).toMatchObject({ toolCallId: 'call-2' });
    expect(updates[4]).toEqual({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'done' } });
  });

  test('a call that faults is a failed tool call and the turn goes on', async () => {
    const { io, updates } = fakeIo({ boom: new Error('connection refused') });
    const stop = await runTurn(turn([{ kind: 'call_tool', name: 'boom', arguments: {} }], 'refusal'), io);
    expect(stop).toBe('refusal');
    expect(updates[1]).toMatchObject({
      status: 'failed',
      content: [{ content: { text: 'boom could not be called: connection refused' } }],
    });
  });

  test('wait_for_cancel ends with cancelled once cancelled, skipping the rest', async () => {
    const { io, updates, cancel } = fakeIo();
    const running = runTurn(turn([{ kind: 'wait_for_cancel' }, { kind: 'reply', text: 'never' }]), io);
    cancel();
    expect(await running).toBe('cancelled');
    expect(updates).toEqual([]);
  });

  test('a turn cancelled between steps stops before the next step', async () => {
    const { io, updates, cancel } = fakeIo();
    io.update = (update) => {
      updates.push(update);
      cancel();
      return Promise.resolve();
    };
    const stop = await runTurn(
      turn([
        { kind: 'reply', text: 'one' },
        { kind: 'reply', text: 'two' },
      ]),
      io,
    );
    expect(stop).toBe('cancelled');
    expect(updates).toHaveLength(1);
  });

  test('exit calls the exit seam with its code', async () => {
    const { io } = fakeIo();
    await expect(runTurn(turn([{ kind: 'exit', code: 7 }]), io)).rejects.toEqual(new ExitCalled(7));
  });
});
