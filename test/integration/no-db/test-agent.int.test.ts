// The scripted test agent as a real ACP agent over stdio, driven by the SDK's ACP client (in a driver
// process, since jest cannot load the ESM-only SDK) and calling a real agentctl's MCP server.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { launchConfigToWire, mcpPathFor, type WireSessionStateOutput } from '@kandev/protocol';
import { agentctlClient, unary } from '../../helpers/agentctl-grpc';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { REPO_ROOT, startAgentctl, stopProcess, TEST_CONTROL_TOKEN, tempDir } from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';
import { waitUntil } from '../../helpers/wait';

const AGENT_MAIN = join(REPO_ROOT, 'packages/test-agent/dist/main.js');
const DRIVER_MAIN = join(REPO_ROOT, 'packages/test-agent/dist/testing/acp-client-driver.js');
const EXAMPLE_SCRIPT = join(REPO_ROOT, 'packages/test-agent/examples/get-task-and-complete.json');
const MCP_TOKEN = 'mcp-token-test-agent-0123456789abcdef0123456789';

interface Reply {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number | null; message: string };
}
interface Update {
  sessionId: string;
  update: { sessionUpdate: string; [key: string]: unknown };
}

/** The driver process: ACP requests in, replies and session updates out (JSON lines). */
class AcpDriver {
  readonly updates: Update[] = [];
  readonly agentExit: Promise<{ code: number | null; signal: string | null }>;
  private readonly replies = new Map<number, (reply: Reply) => void>();
  private nextId = 0;
  private stderr = '';

  constructor(private readonly child: ChildProcess) {
    let onExit: (exit: { code: number | null; signal: string | null }) => void = () => undefined;
    this.agentExit = new Promise((resolve) => (onExit = resolve));
    child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; event?: string; params?: Update; code?: number | null };
      if (message.event === 'session_update') this.updates.push(message.params!);
      else if (message.event === 'agent_exit') onExit(message as { code: number | null; signal: string | null });
      else if (message.id !== undefined) this.replies.get(message.id)?.(message as Reply);
    });
  }

  logs = (): string => this.stderr;

  request(method: string, params: unknown): Promise<Reply> {
    const id = ++this.nextId;
    const reply = new Promise<Reply>((resolve) => this.replies.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ id, request: { method, params } })}\n`);
    return reply;
  }

  async ok(method: string, params: unknown): Promise<Record<string, unknown>> {
    const reply = await this.request(method, params);
    if (reply.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}\n${this.stderr}`);
    return reply.result;
  }

  notify(method: string, params: unknown): void {
    this.child.stdin!.write(`${JSON.stringify({ notify: { method, params } })}\n`);
  }

  updatesOf(sessionId: string): Update['update'][] {
    return this.updates.filter((u) => u.sessionId === sessionId).map((u) => u.update);
  }
}

function startDriver(cleanup: Cleanup, agentArgs: string[]): AcpDriver {
  const child = spawn(process.execPath, [DRIVER_MAIN, '--', process.execPath, AGENT_MAIN, ...agentArgs], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanup.defer(() => stopProcess(child, { graceMs: 5_000 }));
  return new AcpDriver(child);
}

function writeScript(cleanup: Cleanup, script: unknown): string {
  const path = join(tempDir(cleanup, 'kandev-test-agent-'), 'script.json');
  writeFileSync(path, typeof script === 'string' ? script : JSON.stringify(script));
  return path;
}

async function initialize(driver: AcpDriver): Promise<Record<string, unknown>> {
  return driver.ok('initialize', { protocolVersion: 1, clientCapabilities: {} });
}

/** The kandev session (a UUID, as CreateSession requires); not the ACP session ids below. */
const KANDEV_SESSION_ID = sessionUuid('test-agent');

/** A real agentctl with one kanban_task session; returns the MCP server entry for session/new. */
async function agentctlMcpServer(cleanup: Cleanup) {
  const daemon = await startAgentctl(cleanup);
  const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
  const config = launchConfigToWire(namedLaunchConfig('test-agent', MCP_TOKEN, { taskId: 'task-1', systemPrompt: '' }));
  await unary<object, WireSessionStateOutput>(grpc, grpc.CreateSession, config, TEST_CONTROL_TOKEN);
  return {
    type: 'http',
    name: 'kandev',
    url: `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(KANDEV_SESSION_ID)}`,
    headers: [{ name: 'Authorization', value: `Bearer ${MCP_TOKEN}` }],
  };
}

const text = (t: string) => [{ type: 'text', text: t }];

describe('test agent over ACP', () => {
  const cleanup = useCleanup();

  test('initialize advertises HTTP MCP and session/load', async () => {
    const driver = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    expect(await initialize(driver)).toMatchObject({
      protocolVersion: 1,
      agentCapabilities: { loadSession: true, mcpCapabilities: { http: true } },
      agentInfo: { name: 'kandev-test-agent' },
    });
  });

  test('substring turn calls get_task then step_complete through agentctl, replies, ends the turn; index turn next', async () => {
    const mcpServer = await agentctlMcpServer(cleanup);
    const driver = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    await initialize(driver);
    const { sessionId } = (await driver.ok('session/new', { cwd: REPO_ROOT, mcpServers: [mcpServer] })) as {
      sessionId: string;
    };

    const first = await driver.ok('session/prompt', { sessionId, prompt: text('Please finish the task now.') });
    expect(first).toEqual({ stopReason: 'end_turn' });
    const updates = driver.updatesOf(sessionId);
    expect(updates.map((u) => [u.sessionUpdate, u.title ?? u.status ?? null])).toEqual([
      ['agent_message_chunk', null],
      ['tool_call', 'get_task_kandev'],
      ['tool_call_update', 'failed'],
      ['tool_call', 'step_complete_kandev'],
      ['tool_call_update', 'failed'],
      ['agent_message_chunk', null],
    ]);
    // agentctl has no backend attached: each call comes back as its clear isError result, which proves
    // the calls went over MCP with the bearer token (a bad token would fail the connect in session/new).
    expect(updates[1]).toMatchObject({ rawInput: { name: 'get_task_kandev', arguments: {} } });
    expect(updates[2]).toMatchObject({ toolCallId: updates[1]?.toolCallId });
    expect(JSON.stringify(updates[2]?.content)).toMatch(/No backend is attached to agentctl, so get_task_kandev/);
    expect(updates[3]).toMatchObject({
      rawInput: { name: 'step_complete_kandev', arguments: { summary: 'Read the task and completed the step.' } },
    });
    expect(JSON.stringify(updates[4]?.content)).toMatch(/so step_complete_kandev was not performed/);
    expect(updates[5]).toEqual({
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'Done: the step is complete.' },
    });

    const second = await driver.ok('session/prompt', { sessionId, prompt: text('something else') });
    expect(second).toEqual({ stopReason: 'end_turn' });
    expect(driver.updatesOf(sessionId).slice(6)).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'This is my second prompt.' } },
    ]);
  });

  test('a bad MCP token fails session/new with the reason', async () => {
    const mcpServer = await agentctlMcpServer(cleanup);
    const driver = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    await initialize(driver);
    const reply = await driver.request('session/new', {
      cwd: REPO_ROOT,
      mcpServers: [{ ...mcpServer, headers: [{ name: 'Authorization', value: 'Bearer wrong-token-0123456789' }] }],
    });
    expect(reply.error?.message).toMatch(/cannot connect to MCP server/);
  });

  test('unmatched prompts get the default turn, or the fallback reply without one', async () => {
    const withDefault = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    const bare = startDriver(cleanup, ['--script', writeScript(cleanup, { turns: [] })]);
    for (const [driver, reply] of [
      [withDefault, 'I have nothing scripted for that.'],
      [bare, 'no scripted turn for this prompt'],
    ] as const) {
      await initialize(driver);
      const { sessionId } = (await driver.ok('session/new', { cwd: REPO_ROOT, mcpServers: [] })) as {
        sessionId: string;
      };
      expect(await driver.ok('session/prompt', { sessionId, prompt: text('hello') })).toEqual({
        stopReason: 'end_turn',
      });
      expect(driver.updatesOf(sessionId)).toEqual([
        { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: reply } },
      ]);
    }
  });

  test('wait_for_cancel holds the turn until session/cancel, then stops with cancelled', async () => {
    const driver = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    await initialize(driver);
    const { sessionId } = (await driver.ok('session/new', { cwd: REPO_ROOT, mcpServers: [] })) as {
      sessionId: string;
    };
    const prompt = driver.request('session/prompt', { sessionId, prompt: text('please wait for me') });
    // The reply before the wait step is the fact that the turn is running.
    await waitUntil(() => driver.updatesOf(sessionId).length === 1, {
      timeoutMs: 10_000,
      logs: driver.logs,
      what: 'the reply before wait_for_cancel',
    });
    driver.notify('session/cancel', { sessionId });
    expect((await prompt).result).toEqual({ stopReason: 'cancelled' });
    expect(driver.updatesOf(sessionId)).toHaveLength(1);
  });

  test('session/load continues a session with the prompt counter from 0', async () => {
    const driver = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    await initialize(driver);
    expect(await driver.ok('session/load', { sessionId: 'resumed', cwd: REPO_ROOT, mcpServers: [] })).toEqual({
      modes: { currentModeId: 'default', availableModes: expect.any(Array) as unknown },
    });
    await driver.ok('session/prompt', { sessionId: 'resumed', prompt: text('first after load') });
    await driver.ok('session/prompt', { sessionId: 'resumed', prompt: text('second after load') });
    expect(driver.updatesOf('resumed').map((u) => (u.content as { text: string }).text)).toEqual([
      'I have nothing scripted for that.',
      'This is my second prompt.',
    ]);
  });

  test('an exit step ends the agent process with its code', async () => {
    const driver = startDriver(cleanup, ['--script', EXAMPLE_SCRIPT]);
    await initialize(driver);
    const { sessionId } = (await driver.ok('session/new', { cwd: REPO_ROOT, mcpServers: [] })) as {
      sessionId: string;
    };
    void driver.request('session/prompt', { sessionId, prompt: text('now crash') });
    expect(await driver.agentExit).toEqual({ event: 'agent_exit', code: 3, signal: null });
  });
});

describe('test agent script loading', () => {
  const cleanup = useCleanup();

  async function runAgent(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [AGENT_MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    cleanup.defer(() => stopProcess(child, { graceMs: 5_000 }));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stderr };
  }

  test('a bad script exits 2 naming the file and each problem', async () => {
    const path = writeScript(cleanup, { turns: [{ match: { contains: 'x' }, steps: [{ reply: 1 }, { wait: true }] }] });
    const { code, stderr } = await runAgent(['--script', path]);
    expect(code).toBe(2);
    expect(stderr).toContain(`bad script ${path}`);
    expect(stderr).toMatch(/turns\.0\.steps\.0\.reply: .*expected string/);
    expect(stderr).toMatch(/turns\.0\.steps\.1: Unrecognized key: "wait"/);
  });

  test.each([
    ['invalid JSON (via env)', [], (path: string) => ({ KANDEV_TEST_AGENT_SCRIPT: path }), /not valid JSON/],
    ['a missing file', ['--script', '/nonexistent/script.json'], () => ({}), /cannot read script \/nonexistent/],
    ['no script at all', [], () => ({}), /no script: pass --script <file> or set KANDEV_TEST_AGENT_SCRIPT/],
  ])('%s exits 2 with a clear message', async (_name, args, env, message) => {
    const path = writeScript(cleanup, '{"turns": [');
    const { code, stderr } = await runAgent(args, env(path));
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });
});
