import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ToolOutcome } from './mcp-link';
import type { TurnBody } from './script';
import { describeTools, runTurn, TurnFailure, type TurnIo } from './turn-runner';

class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

function fakeIo(tools: Record<string, ToolOutcome | Error> = {}, listed: string[] | Error = Object.keys(tools)) {
  const files = new Map<string, { release: () => void; fail: (err: Error) => void; signal: AbortSignal }>();
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
    listTools: () => (listed instanceof Error ? Promise.reject(listed) : Promise.resolve(listed)),
    waitForFile: (path, signal) =>
      new Promise<void>((release, fail) => {
        files.set(path, { release, fail, signal });
      }),
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
  return { io, updates, calls, files, cancel: () => cancel() };
}

const CONTEXT = { prompt: 'the prompt', ordinal: 0 };

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
      CONTEXT,
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
    const stop = await runTurn(turn([{ kind: 'call_tool', name: 'boom', arguments: {} }], 'refusal'), CONTEXT, io);
    expect(stop).toBe('refusal');
    expect(updates[1]).toMatchObject({
      status: 'failed',
      content: [{ content: { text: 'boom could not be called: connection refused' } }],
    });
  });

  test('wait_for_cancel ends with cancelled once cancelled, skipping the rest', async () => {
    const { io, updates, cancel } = fakeIo();
    const running = runTurn(turn([{ kind: 'wait_for_cancel' }, { kind: 'reply', text: 'never' }]), CONTEXT, io);
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
      CONTEXT,
      io,
    );
    expect(stop).toBe('cancelled');
    expect(updates).toHaveLength(1);
  });

  test('exit calls the exit seam with its code', async () => {
    const { io } = fakeIo();
    await expect(runTurn(turn([{ kind: 'exit', code: 7 }]), CONTEXT, io)).rejects.toEqual(new ExitCalled(7));
  });

  test('reply text fills in {{prompt}} and {{ordinal}}', async () => {
    const { io, updates } = fakeIo();
    await runTurn(turn([{ kind: 'reply', text: '#{{ordinal}} got: {{ prompt }}' }]), { prompt: 'p-2', ordinal: 4 }, io);
    expect(updates).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '#4 got: p-2' } }]);
  });

  test('list_tools replies one chunk with the sorted names and their count', async () => {
    const { io, updates } = fakeIo({}, ['step_complete_kandev', 'get_task_kandev', 'ask_user_question_kandev']);
    const stop = await runTurn(turn([{ kind: 'list_tools' }]), CONTEXT, io);
    expect(stop).toBe('end_turn');
    expect(updates).toEqual([
      {
        sessionUpdate: 'agent_message_chunk',
        content: {
          type: 'text',
          text: 'Tools I can see (3): ask_user_question_kandev, get_task_kandev, step_complete_kandev',
        },
      },
    ]);
  });

  test('list_tools without a reachable MCP server fails the turn, naming why, and runs no later step', async () => {
    const { io, updates } = fakeIo({}, new Error('no HTTP MCP server was given in session/new'));
    const running = runTurn(turn([{ kind: 'list_tools' }, { kind: 'reply', text: 'never' }]), CONTEXT, io);
    await expect(running).rejects.toThrow(TurnFailure);
    await expect(running).rejects.toThrow('list_tools failed: no HTTP MCP server was given in session/new');
    expect(updates).toEqual([]);
  });
});

describe('runTurn: wait_for_file', () => {
  const steps: TurnBody['steps'] = [
    { kind: 'wait_for_file', path: 'release-{{ordinal}}' },
    { kind: 'reply', text: 'released' },
  ];
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  test('blocks until the file (placeholders filled in) exists, then goes on', async () => {
    const { io, updates, files } = fakeIo();
    const running = runTurn(turn(steps), { prompt: 'p', ordinal: 3 }, io);
    await settle();
    expect([...files.keys()]).toEqual(['release-3']);
    expect(updates).toEqual([]);
    files.get('release-3')!.release();
    expect(await running).toBe('end_turn');
    expect(updates).toHaveLength(1);
    expect(files.get('release-3')!.signal.aborted).toBe(true);
  });

  test('a cancel ends the wait with cancelled and stops the watch', async () => {
    const { io, updates, files, cancel } = fakeIo();
    const running = runTurn(turn(steps), CONTEXT, io);
    await settle();
    cancel();
    expect(await running).toBe('cancelled');
    expect(updates).toEqual([]);
    expect(files.get('release-0')!.signal.aborted).toBe(true);
  });

  test('a file that cannot be watched fails the turn, naming it', async () => {
    const { io, files } = fakeIo();
    const running = runTurn(turn(steps), CONTEXT, io);
    await settle();
    files.get('release-0')!.fail(new Error('cannot watch /nowhere: ENOENT'));
    await expect(running).rejects.toThrow(TurnFailure);
    await expect(running).rejects.toThrow('wait_for_file release-0 failed: cannot watch /nowhere: ENOENT');
  });
});

describe('describeTools', () => {
  test('an empty list says none', () => {
    expect(describeTools([])).toBe('Tools I can see (0): none');
  });
});
