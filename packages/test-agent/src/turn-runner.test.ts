import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { ToolOutcome } from './mcp-link';
import type { TurnBody } from './script';
import { createSessionMemory, describeTools, runTurn, type TurnContext, TurnFailure, type TurnIo } from './turn-runner';

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
    knownTools: () => (listed instanceof Error ? [] : listed.slice(0, 1)),
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

/** A fresh context (and session memory) per call, so no test sees another's variables. */
function context(overrides: Partial<TurnContext> = {}): TurnContext {
  return {
    prompt: 'the prompt',
    ordinal: 0,
    systemPrompt: '',
    mode: 'default',
    memory: createSessionMemory(),
    ...overrides,
  };
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
      context(),
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
    const stop = await runTurn(turn([{ kind: 'call_tool', name: 'boom', arguments: {} }], 'refusal'), context(), io);
    expect(stop).toBe('refusal');
    expect(updates[1]).toMatchObject({
      status: 'failed',
      content: [{ content: { text: 'boom could not be called: connection refused' } }],
    });
  });

  test('wait_for_cancel ends with cancelled once cancelled, skipping the rest', async () => {
    const { io, updates, cancel } = fakeIo();
    const running = runTurn(turn([{ kind: 'wait_for_cancel' }, { kind: 'reply', text: 'never' }]), context(), io);
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
      context(),
      io,
    );
    expect(stop).toBe('cancelled');
    expect(updates).toHaveLength(1);
  });

  test('exit calls the exit seam with its code', async () => {
    const { io } = fakeIo();
    await expect(runTurn(turn([{ kind: 'exit', code: 7 }]), context(), io)).rejects.toEqual(new ExitCalled(7));
  });

  test('reply text fills in {{prompt}} and {{ordinal}}', async () => {
    const { io, updates } = fakeIo();
    await runTurn(
      turn([{ kind: 'reply', text: '#{{ordinal}} got: {{ prompt }}' }]),
      context({ prompt: 'p-2', ordinal: 4 }),
      io,
    );
    expect(updates).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '#4 got: p-2' } }]);
  });

  test('list_tools replies one chunk with the sorted names and their count', async () => {
    const { io, updates } = fakeIo({}, ['step_complete_kandev', 'get_task_kandev', 'ask_user_question_kandev']);
    const stop = await runTurn(turn([{ kind: 'list_tools' }]), context(), io);
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

  test('known_tools replies with the last listing, without listing again', async () => {
    const { io, updates } = fakeIo({}, ['step_complete_kandev', 'get_task_kandev']);
    await runTurn(turn([{ kind: 'known_tools' }]), context(), io);
    expect(updates).toEqual([
      {
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'Tools I know (1): step_complete_kandev' },
      },
    ]);
  });

  test('list_tools without a reachable MCP server fails the turn, naming why, and runs no later step', async () => {
    const { io, updates } = fakeIo({}, new Error('no HTTP MCP server was given in session/new'));
    const running = runTurn(turn([{ kind: 'list_tools' }, { kind: 'reply', text: 'never' }]), context(), io);
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
    const running = runTurn(turn(steps), context({ prompt: 'p', ordinal: 3 }), io);
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
    const running = runTurn(turn(steps), context(), io);
    await settle();
    cancel();
    expect(await running).toBe('cancelled');
    expect(updates).toEqual([]);
    expect(files.get('release-0')!.signal.aborted).toBe(true);
  });

  test('a file that cannot be watched fails the turn, naming it', async () => {
    const { io, files } = fakeIo();
    const running = runTurn(turn(steps), context(), io);
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

describe('runTurn: capture and {{var:<name>}}', () => {
  const capture = (
    name: string,
    pattern: string,
    from: 'prompt' | 'last_tool_result' = 'prompt',
    flags = '',
  ): TurnBody['steps'][number] => ({ kind: 'capture', name, pattern, flags, from });
  const PROMPT = 'Child task t-1 asks (question_id: q-42-ab). Reply with reply_to_question_id.';

  test('a capture from the prompt fills {{var:..}} in replies and, deeply, in call_tool argument strings', async () => {
    const { io, updates, calls } = fakeIo({ message_task_kandev: { isError: false, text: 'queued', raw: {} } });
    const ctx = context({ prompt: PROMPT });
    const stop = await runTurn(
      turn([
        capture('qid', 'question_id["\': ]+([\\w-]+)'),
        capture('child', 'task (\\S+) asks'),
        {
          kind: 'call_tool',
          name: 'message_task_kandev',
          arguments: {
            task_id: '{{var:child}}',
            prompt: 'Use Postgres ({{ var:qid }}, #{{ordinal}})',
            reply_to_question_id: '{{var:qid}}',
            nested: { list: ['{{var:qid}}', 3, true, null], n: 1 },
          },
        },
        { kind: 'reply', text: 'answered {{var:qid}} for {{var:child}}' },
      ]),
      ctx,
      io,
    );
    expect(stop).toBe('end_turn');
    expect(calls).toEqual([
      {
        name: 'message_task_kandev',
        args: {
          task_id: 't-1',
          prompt: 'Use Postgres (q-42-ab, #0)',
          reply_to_question_id: 'q-42-ab',
          nested: { list: ['q-42-ab', 3, true, null], n: 1 },
        },
      },
    ]);
    // What the client is shown is what was sent.
    expect(updates[0]).toMatchObject({ rawInput: { arguments: { reply_to_question_id: 'q-42-ab' } } });
    expect(updates[2]).toEqual({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'answered q-42-ab for t-1' },
    });
    expect([...ctx.memory.vars]).toEqual([
      ['qid', 'q-42-ab'],
      ['child', 't-1'],
    ]);
  });

  test('variables outlive the turn: a later turn of the session reuses them', async () => {
    const memory = createSessionMemory();
    await runTurn(turn([capture('qid', 'id=(\\w+)')]), context({ prompt: 'id=abc', memory }), fakeIo().io);
    const { io, updates } = fakeIo();
    await runTurn(turn([{ kind: 'reply', text: 'still {{var:qid}}' }]), context({ prompt: 'next', memory }), io);
    expect(updates).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'still abc' } }]);
  });

  test('a capture from the last tool result reads the result text of the latest call_tool (failed ones too)', async () => {
    const { io, updates } = fakeIo({
      ask_user_question_kandev: { isError: false, text: 'The operator answered:\nWhich DB? -> Postgres', raw: {} },
      broken: { isError: true, text: 'error: code=E7', raw: {} },
    });
    const ctx = context();
    await runTurn(
      turn([
        { kind: 'call_tool', name: 'ask_user_question_kandev', arguments: {} },
        capture('answer', '-> (.+)$', 'last_tool_result', 'm'),
        { kind: 'call_tool', name: 'broken', arguments: {} },
        capture('code', 'code=(\\w+)', 'last_tool_result'),
        { kind: 'reply', text: '{{var:answer}} / {{var:code}}' },
      ]),
      ctx,
      io,
    );
    expect(updates.at(-1)).toEqual({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'Postgres / E7' },
    });
    expect(ctx.memory.lastToolResult).toBe('error: code=E7');
  });

  test('a capture that does not match fails the turn naming the variable, the pattern and the text; no later step runs', async () => {
    const { io, updates } = fakeIo();
    const running = runTurn(
      turn([capture('qid', 'question_id: (\\w+)', 'prompt', 'i'), { kind: 'reply', text: 'never' }]),
      context({ prompt: 'no id here' }),
      io,
    );
    await expect(running).rejects.toThrow(TurnFailure);
    await expect(running).rejects.toThrow(
      'capture qid failed: /question_id: (\\w+)/i did not match the prompt (group 1): "no id here"',
    );
    expect(updates).toEqual([]);
  });

  test('an optional group that did not take part counts as no match', async () => {
    const running = runTurn(turn([capture('v', 'x(y)?')]), context({ prompt: 'x' }), fakeIo().io);
    await expect(running).rejects.toThrow('capture v failed: /x(y)?/ did not match the prompt (group 1): "x"');
  });

  test('the quoted text is cut short', async () => {
    const running = runTurn(turn([capture('v', 'z(z)')]), context({ prompt: 'a'.repeat(1000) }), fakeIo().io);
    await expect(running).rejects.toThrow(`"${'a'.repeat(300)}..."`);
  });

  test('a capture from the last tool result before any call_tool fails the turn, saying so', async () => {
    const running = runTurn(turn([capture('v', '(.*)', 'last_tool_result')]), context(), fakeIo().io);
    await expect(running).rejects.toThrow(
      'capture v failed: /(.*)/ reads the last tool result, but no call_tool step has run in this session',
    );
  });

  test.each([
    ['a reply', { kind: 'reply', text: 'x {{var:qid}}' }, 'reply: unknown variable {{var:qid}}'],
    [
      'a call_tool argument (nested)',
      { kind: 'call_tool', name: 'message_task_kandev', arguments: { a: { b: ['{{var:qid}}'] } } },
      'call_tool message_task_kandev: unknown variable {{var:qid}}',
    ],
    [
      'a wait_for_file path',
      { kind: 'wait_for_file', path: '{{var:qid}}' },
      'wait_for_file: unknown variable {{var:qid}}',
    ],
  ] as const)('an unset variable in %s fails the turn before the step does anything', async (_name, step, message) => {
    const { io, updates, calls, files } = fakeIo();
    const ctx = context();
    ctx.memory.vars.set('other', 'x');
    const running = runTurn(turn([step]), ctx, io);
    await expect(running).rejects.toThrow(TurnFailure);
    await expect(running).rejects.toThrow(`${message}: no capture step has set it in this session (set so far: other)`);
    expect([updates, calls, [...files.keys()]]).toEqual([[], [], []]);
  });

  test('{{system_prompt}} is the session system prompt', async () => {
    const { io, updates } = fakeIo();
    await runTurn(turn([{ kind: 'reply', text: 'SP: {{system_prompt}}' }]), context({ systemPrompt: 'be brief' }), io);
    expect(updates).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'SP: be brief' } },
    ]);
  });
});
