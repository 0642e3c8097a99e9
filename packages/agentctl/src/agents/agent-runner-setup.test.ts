import { FakeToolView } from '../testing/fake-tool-view';
import { FULL_CAPABILITIES } from '../testing/fake-acp-connection';
import { flush, SPEC, started } from '../testing/agent-runner-harness';
import { NO_KANDEV_TOOLS_WARNING } from './agent-turns';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const modes = (current: string, ...ids: string[]) => ({
  currentModeId: current,
  available: ids.map((id) => ({ id, name: id })),
});

describe('AgentRunner: the permission policy sets the agent mode', () => {
  test.each([
    ['ask', 'Claude Code', modes('auto', 'default', 'acceptEdits', 'plan', 'auto'), ['session/set_mode:default']],
    [
      'deny_all',
      'Codex',
      modes('agent', 'read-only', 'workspace-write', 'agent', 'agent-full-access'),
      ['session/set_mode:read-only'],
    ],
    ['allow_all', 'Gemini CLI', modes('default', 'default', 'autoEdit', 'yolo', 'plan'), ['session/set_mode:yolo']],
    // Claude Code as root offers no bypass: an asking mode, whose requests agentctl allows.
    [
      'allow_all',
      'Claude Code as root',
      modes('auto', 'default', 'acceptEdits', 'plan', 'auto'),
      ['session/set_mode:default'],
    ],
    ['ask', 'an agent already in it', modes('default', 'default', 'yolo'), []],
  ] as const)('policy %s, %s: %j', async (permissionPolicy, _agent, offered, setModes) => {
    const t = await started({ permissionPolicy }, (c) => (c.modes = offered));
    expect(t.conn().calls.filter((call) => call.startsWith('session/set_mode'))).toEqual(setModes);
    const modeId = setModes.length === 0 ? offered.currentModeId : setModes[0]?.split(':')[1];
    expect(t.events[0]).toMatchObject({ kind: 'agent_started', modeId });
    expect(t.runner.state().modeId).toBe(modeId);
  });

  test('an agent without modes: nothing set, no notice', async () => {
    const t = await started({ permissionPolicy: 'ask' });
    expect(t.conn().calls).toEqual(['initialize', 'session/new']);
    expect(t.kinds()).toEqual(['agent_started']);
  });

  test('modes none of which fits: a warning notice, the agent keeps its own', async () => {
    const t = await started({ permissionPolicy: 'ask' }, (c) => (c.modes = modes('auto', 'auto', 'plan')));
    expect(t.conn().calls).toEqual(['initialize', 'session/new']);
    expect(t.events[0]).toMatchObject({
      kind: 'agent_notice',
      code: 'mode_unavailable',
      level: 'warning',
      message: expect.stringContaining('auto, plan') as unknown,
    });
    expect(t.events[1]).toMatchObject({ kind: 'agent_started', modeId: 'auto' });
  });

  test('a mode the agent refuses fails the start: the policy would not hold', async () => {
    const t = await started({ permissionPolicy: 'ask' }, (c) => {
      c.modes = modes('auto', 'default', 'auto');
      c.setModeError = new Error('session/set_mode failed: Mode default is not available');
    });
    expect(t.proc.stops).toHaveLength(1);
    expect(t.kinds()).not.toContain('agent_started');
  });

  test('after a session/load the mode is set again (agents reset it)', async () => {
    const t = await started({ resumeAcpSessionId: 'acp-old', permissionPolicy: 'ask' }, (c) => {
      c.modes = modes('auto', 'default', 'auto');
    });
    expect(t.conn().calls).toEqual(['initialize', 'session/load', 'session/set_mode:default']);
  });
});

describe('AgentRunner: the system prompt beside the agent own', () => {
  test('an agent advertising systemPrompt gets it in append form; prompts go as written', async () => {
    const t = await started();
    expect(t.conn().newSessionParams?.systemPrompt).toBe(SPEC.systemPrompt);
    t.runner.prompt('p1', 'hello');
    expect(t.conn().prompts.map((p) => p.text)).toEqual(['hello']);
  });

  test('otherwise it leads the first prompt of the ACP session, and only the first', async () => {
    const t = await started({}, (c) => (c.capabilities = { ...FULL_CAPABILITIES, systemPrompt: false }));
    expect(t.conn().newSessionParams?.systemPrompt).toBeNull();
    expect(t.events[0]).toMatchObject({ kind: 'agent_started', systemPromptDelivery: 'first_prompt' });
    t.runner.prompt('p1', 'hello');
    t.conn().endPrompt();
    await flush();
    t.runner.prompt('p2', 'again');
    expect(t.conn().prompts.map((p) => p.text)).toEqual([
      `<kandev-instructions>\n${SPEC.systemPrompt}\n</kandev-instructions>\n\nhello`,
      'again',
    ]);
  });

  test('a loaded session keeps the prompt it was created with: no preamble', async () => {
    const t = await started({ resumeAcpSessionId: 'acp-old' }, (c) => {
      c.capabilities = { ...FULL_CAPABILITIES, systemPrompt: false };
    });
    expect(t.events[0]).toMatchObject({ systemPromptDelivery: 'kept' });
    t.runner.prompt('p1', 'hello');
    expect(t.conn().prompts.map((p) => p.text)).toEqual(['hello']);
  });

  test('a load the agent refuses: a new session, a notice, and the preamble', async () => {
    const t = await started({ resumeAcpSessionId: 'acp-old' }, (c) => {
      c.capabilities = { ...FULL_CAPABILITIES, systemPrompt: false };
      c.loadError = new Error('session/load failed: Authentication required');
    });
    expect(t.conn().calls).toEqual(['initialize', 'session/load', 'session/new']);
    expect(t.events[0]).toMatchObject({
      kind: 'agent_notice',
      code: 'session_not_loaded',
      message: expect.stringContaining('Authentication required') as unknown,
    });
    expect(t.events[1]).toMatchObject({ kind: 'agent_started', acpSessionId: 'acp-1', loaded: false });
    t.runner.prompt('p1', 'hello');
    expect(t.conn().prompts[0]?.text).toContain('<kandev-instructions>');
  });

  test("an agent's advertised extension gets its options: the session's tools need no click", async () => {
    const t = await started({}, (c) => (c.capabilities = { ...FULL_CAPABILITIES, extensions: ['claudeCode'] }));
    expect(t.conn().newSessionParams?.meta).toEqual({
      claudeCode: { options: { allowedTools: ['mcp__kandev'], promptSuggestions: false } },
    });
    const without = await started(
      { mcpServer: null },
      (c) => (c.capabilities = { ...FULL_CAPABILITIES, extensions: ['claudeCode'] }),
    );
    expect(without.conn().newSessionParams?.meta).toEqual({ claudeCode: { options: { promptSuggestions: false } } });
  });
});

describe('AgentRunner: an agent that never lists its MCP tools is reported', () => {
  function silentTools(): FakeToolView {
    const tools = new FakeToolView();
    tools.listsOnConnect = false;
    return tools;
  }

  test('a warning notice, mcp_connected false, and every completed turn says so until it lists', async () => {
    const tools = silentTools();
    const t = await started({}, undefined, { tools });
    expect(t.events.slice(0, 2)).toMatchObject([
      { kind: 'agent_notice', code: 'mcp_not_connected', level: 'warning' },
      { kind: 'agent_started', mcpConnected: false },
    ]);
    expect(t.runner.state().mcpConnected).toBe(false);
    t.runner.prompt('p1', 'x');
    t.conn().endPrompt();
    await flush();
    expect(t.events.at(-1)).toMatchObject({
      kind: 'turn_ended',
      turn: { status: 'completed', stopReason: 'end_turn', error: NO_KANDEV_TOOLS_WARNING },
    });
    tools.list();
    t.runner.prompt('p2', 'x');
    t.conn().endPrompt();
    await flush();
    expect(t.events.at(-1)).toMatchObject({ kind: 'turn_ended', turn: { status: 'completed', error: null } });
    expect(t.runner.state().mcpConnected).toBe(true);
  });

  test('an agent without the MCP server is not checked', async () => {
    const t = await started({ mcpServer: null }, undefined, { tools: silentTools() });
    expect(t.kinds()).toEqual(['agent_started']);
    expect(t.events[0]).toMatchObject({ mcpConnected: false });
  });
});

describe('AgentRunner: tool changes reach an agent that ignores list_changed', () => {
  const BEFORE = ['get_task_kandev', 'list_tasks_kandev'];
  const AFTER = ['get_task_kandev', 'get_task_mr_automation_kandev', 'list_tasks_kandev'];

  test('it re-listed: the prompt goes as written', async () => {
    const tools = new FakeToolView(BEFORE);
    const t = await started({}, undefined, { tools });
    tools.change(AFTER);
    tools.list();
    t.runner.prompt('p1', 'next');
    await flush();
    expect(t.conn().calls).not.toContain('session/close');
    expect(t.conn().prompts.map((p) => p.text)).toEqual(['next']);
  });

  test('it did not: its ACP session is reopened before the prompt, its mode set again, and it is told', async () => {
    const tools = new FakeToolView(BEFORE);
    const t = await started({ permissionPolicy: 'ask' }, (c) => (c.modes = modes('read-only', 'read-only', 'agent')), {
      tools,
    });
    tools.change(AFTER);
    t.runner.prompt('p1', 'next');
    await flush();
    expect(t.conn().calls.slice(2)).toEqual(['session/close', 'session/resume', 'session/prompt']);
    expect(t.conn().resumeSessionParams).toMatchObject({ sessionId: 'acp-1', mcpServers: [SPEC.mcpServer] });
    expect(t.conn().prompts[0]?.text).toBe(
      'Note from kandev: your kandev tools changed since your last turn (added get_task_mr_automation_kandev).\n\nnext',
    );
    expect(t.events.find((e) => e.kind === 'agent_notice')).toMatchObject({ code: 'tools_reloaded', level: 'info' });
    // Once applied, the next prompt has nothing to do.
    t.conn().endPrompt();
    await flush();
    t.runner.prompt('p2', 'again');
    await flush();
    expect(t.conn().prompts.at(-1)?.text).toBe('again');
  });

  test('a reset mode is set again after the reopen', async () => {
    const tools = new FakeToolView(BEFORE);
    const t = await started({ permissionPolicy: 'ask' }, (c) => (c.modes = modes('agent', 'read-only', 'agent')), {
      tools,
    });
    t.conn().modes = modes('agent', 'read-only', 'agent');
    tools.change(AFTER);
    t.runner.prompt('p1', 'next');
    await flush();
    expect(t.conn().calls.slice(3)).toEqual([
      'session/close',
      'session/resume',
      'session/set_mode:read-only',
      'session/prompt',
    ]);
  });

  test('an agent that cannot reopen its session keeps its list; the prompt goes as written', async () => {
    const tools = new FakeToolView(BEFORE);
    const t = await started({}, (c) => (c.capabilities = { ...FULL_CAPABILITIES, closeSession: false }), { tools });
    tools.change(AFTER);
    t.runner.prompt('p1', 'next');
    await flush();
    expect(t.conn().calls).toEqual(['initialize', 'session/new', 'session/prompt']);
    expect(t.conn().prompts[0]?.text).toBe('next');
  });

  test('cancelled while the boundary work runs: the turn ends cancelled, nothing is sent', async () => {
    const tools = new FakeToolView(BEFORE);
    const t = await started({}, undefined, { tools });
    tools.change(AFTER);
    t.runner.prompt('p1', 'next');
    expect(t.runner.cancel()).toEqual({ cancelled: true, promptId: 'p1' });
    await flush();
    expect(t.conn().prompts).toEqual([]);
    expect(t.conn().cancels).toEqual([]);
    expect(t.events.at(-1)).toMatchObject({
      kind: 'turn_ended',
      turn: { status: 'completed', stopReason: 'cancelled' },
    });
  });
});

describe('AgentRunner: text streams', () => {
  test('chunks that arrived together go out together, right after; later chunks append to the same run', async () => {
    const t = await started();
    t.runner.prompt('p1', 'x');
    t.conn().update({ kind: 'message_chunk', text: 'Hel' });
    t.conn().update({ kind: 'message_chunk', text: 'lo' });
    expect(t.kinds()).toEqual(['agent_started', 'turn_started']);
    jest.runOnlyPendingTimers();
    t.conn().update({ kind: 'message_chunk', text: ' world' });
    jest.runOnlyPendingTimers();
    expect(t.events.slice(2)).toEqual([
      { kind: 'agent_message', promptId: 'p1', segment: 1, text: 'Hello' },
      { kind: 'agent_message', promptId: 'p1', segment: 1, text: ' world' },
    ]);
  });
});
