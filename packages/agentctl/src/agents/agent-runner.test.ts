import { FakeAcpConnection, FULL_CAPABILITIES } from '../testing/fake-acp-connection';
import { FakeAgentProcess } from '../testing/fake-agent-process';
import {
  flush,
  MCP_SERVER,
  SPEC,
  setup,
  started,
  START_TIMEOUT_MS,
  STOP_GRACE_MS,
  TOKEN,
} from '../testing/agent-runner-harness';
import type { AgentExit } from './agent-exit';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('AgentRunner start-up', () => {
  test('spawns, initializes, opens a new ACP session with the MCP server and system prompt, then is ready', async () => {
    const t = setup();
    t.runner.start();
    expect(t.spawn).toHaveBeenCalledWith(SPEC.process);
    expect(t.runner.state()).toMatchObject({ status: 'starting', pid: 4242, acpSessionId: null });
    await flush();
    expect(t.conn().calls).toEqual(['initialize', 'session/new']);
    expect(t.conn().newSessionParams).toEqual({
      cwd: '/work',
      mcpServers: [MCP_SERVER],
      systemPrompt: SPEC.systemPrompt,
      meta: {},
    });
    expect(t.runner.state()).toEqual({
      status: 'ready',
      pid: 4242,
      acpSessionId: 'acp-1',
      loaded: false,
      currentPromptId: null,
      exitReason: null,
      turns: [],
      modeId: null,
      systemPromptDelivery: 'spec_append',
      mcpConnected: true,
    });
    expect(t.events).toEqual([
      {
        kind: 'agent_started',
        pid: 4242,
        acpSessionId: 'acp-1',
        loaded: false,
        modeId: null,
        systemPromptDelivery: 'spec_append',
        mcpConnected: true,
      },
    ]);
  });

  test('a profile without MCP gets no MCP server', async () => {
    const t = await started({ mcpServer: null });
    expect(t.conn().newSessionParams?.mcpServers).toEqual([]);
  });

  test('resume with an agent that can load: session/load, the same ACP session, replayed history ignored', async () => {
    const t = setup(
      { resumeAcpSessionId: 'acp-old' },
      { configure: (c) => (c.loadAnswer = FakeAcpConnection.deferred()) },
    );
    t.runner.start();
    await flush();
    t.conn().update({ kind: 'message_chunk', text: 'an old answer' }, 'acp-old');
    t.conn().update({ kind: 'tool_call', toolCallId: 'old-call', title: 'old' }, 'acp-old');
    t.conn().loadAnswer?.resolve();
    await flush();
    expect(t.conn().calls).toEqual(['initialize', 'session/load']);
    expect(t.conn().loadSessionParams).toEqual({
      sessionId: 'acp-old',
      cwd: '/work',
      mcpServers: [MCP_SERVER],
      systemPrompt: SPEC.systemPrompt,
      meta: {},
    });
    expect(t.events).toEqual([
      expect.objectContaining({
        kind: 'agent_started',
        acpSessionId: 'acp-old',
        loaded: true,
        systemPromptDelivery: 'kept',
      }),
    ]);
    expect(t.runner.state()).toMatchObject({ status: 'ready', acpSessionId: 'acp-old', loaded: true });
  });

  test('resume with an agent that cannot load: a new session', async () => {
    const t = await started(
      { resumeAcpSessionId: 'acp-old' },
      (c) => (c.capabilities = { ...FULL_CAPABILITIES, loadSession: false }),
    );
    expect(t.conn().calls).toEqual(['initialize', 'session/new']);
    expect(t.runner.state()).toMatchObject({ acpSessionId: 'acp-1', loaded: false });
  });

  test('an agent without HTTP MCP support is still offered the server', async () => {
    const t = await started({}, (c) => (c.capabilities = { ...FULL_CAPABILITIES, loadSession: false, mcpHttp: false }));
    expect(t.conn().newSessionParams?.mcpServers).toEqual([MCP_SERVER]);
  });

  test('a failed handshake ends the agent: agent_exited with the reason, not expected', async () => {
    const t = await started(
      {},
      (c) => (c.newSessionError = new Error('session/new failed: cannot connect to MCP server')),
    );
    expect(t.proc.stops).toEqual([STOP_GRACE_MS]);
    await flush();
    expect(t.events).toEqual([
      {
        kind: 'agent_exited',
        exitCode: null,
        signal: 'SIGTERM',
        reason: 'handshake failed: session/new failed: cannot connect to MCP server',
        expected: false,
      },
    ]);
    expect(t.runner.state()).toMatchObject({
      status: 'exited',
      exitReason: expect.stringContaining('handshake failed'),
    });
  });

  test('a handshake with no answer times out', async () => {
    const t = await started({}, (c) => (c.initializeAnswer = FakeAcpConnection.deferred()));
    expect(t.proc.stops).toEqual([]);
    await jest.advanceTimersByTimeAsync(START_TIMEOUT_MS);
    await flush();
    expect(t.events).toEqual([
      expect.objectContaining({
        kind: 'agent_exited',
        reason: `handshake failed: no answer within ${START_TIMEOUT_MS} ms`,
      }),
    ]);
  });

  test('a command that cannot be spawned: agent_exited with the spawn error, nothing else', async () => {
    const failure: AgentExit = { exitCode: null, signal: null, reason: 'could not start: spawn nope ENOENT' };
    const t = setup({}, { process: new FakeAgentProcess(null, failure) });
    t.runner.start();
    await flush();
    expect(t.events).toEqual([{ kind: 'agent_exited', ...failure, expected: false }]);
    expect(t.runner.state()).toMatchObject({ status: 'exited', pid: null, exitReason: failure.reason });
  });
});

describe('AgentRunner exit and stop', () => {
  test('the agent dies mid-turn: output flushed, turn_ended failed, agent_exited unexpected, group killed', async () => {
    const t = await started();
    t.runner.prompt('p1', 'x');
    t.conn().update({ kind: 'message_chunk', text: 'partial' });
    t.conn().closeFromAgent();
    t.proc.exit(null, 'SIGKILL');
    await flush();
    expect(t.events.slice(2)).toEqual([
      { kind: 'agent_message', promptId: 'p1', segment: 1, text: 'partial' },
      {
        kind: 'turn_ended',
        turn: expect.objectContaining({ status: 'failed', error: 'agent exited: killed by SIGKILL' }) as unknown,
      },
      { kind: 'agent_exited', exitCode: null, signal: 'SIGKILL', reason: 'killed by SIGKILL', expected: false },
    ]);
    expect(t.proc.kills).toBe(1);
    expect(t.runner.state()).toMatchObject({
      status: 'exited',
      exitReason: 'killed by SIGKILL',
      currentPromptId: null,
    });
    expect(() => t.runner.prompt('p2', 'x')).toThrow(
      expect.objectContaining({
        code: 'failed_precondition',
        message: expect.stringContaining('killed by SIGKILL'),
      }) as Error,
    );
  });

  test('an exit code is the reason', async () => {
    const t = await started();
    t.proc.exit(3);
    await flush();
    expect(t.events.at(-1)).toEqual({
      kind: 'agent_exited',
      exitCode: 3,
      signal: null,
      reason: 'exited with code 3',
      expected: false,
    });
  });

  test('stop: the process group is stopped, the running turn fails, agent_exited is expected; idempotent', async () => {
    const t = await started();
    t.runner.prompt('p1', 'x');
    await Promise.all([t.runner.stop(), t.runner.stop()]);
    expect(t.proc.stops).toEqual([STOP_GRACE_MS]);
    expect(t.events.slice(2)).toEqual([
      {
        kind: 'turn_ended',
        turn: expect.objectContaining({
          status: 'failed',
          error: 'agent exited: stopped by agentctl (killed by SIGTERM)',
        }) as unknown,
      },
      {
        kind: 'agent_exited',
        exitCode: null,
        signal: 'SIGTERM',
        reason: 'stopped by agentctl (killed by SIGTERM)',
        expected: true,
      },
    ]);
    expect(t.proc.kills).toBe(0);
    expect(() => t.runner.prompt('p2', 'x')).toThrow(expect.objectContaining({ code: 'failed_precondition' }) as Error);
  });

  test('stopped before it started: it never spawns; a queued prompt ends failed', async () => {
    const t = setup();
    t.runner.prompt('p1', 'x');
    await t.runner.stop();
    t.runner.start();
    expect(t.spawn).not.toHaveBeenCalled();
    expect(t.events).toEqual([
      {
        kind: 'turn_ended',
        turn: expect.objectContaining({
          promptId: 'p1',
          status: 'failed',
          error: 'agent exited: stopped before it started',
        }) as unknown,
      },
    ]);
  });

  test('stdout closed but the process lingers: it is ended after the grace period', async () => {
    const t = await started();
    const lingering = t.proc;
    jest.spyOn(lingering, 'stop');
    t.conn().close();
    await flush();
    expect(lingering.stop).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(STOP_GRACE_MS);
    await flush();
    expect(t.events.at(-1)).toMatchObject({
      kind: 'agent_exited',
      reason: 'the agent closed its ACP connection',
      expected: false,
    });
  });

  test('the MCP token never shows up in state or events', async () => {
    const t = await started();
    t.runner.prompt('p1', 'x');
    t.proc.exit(1);
    await flush();
    expect(JSON.stringify([t.runner.state(), t.events])).not.toContain(TOKEN);
  });
});
