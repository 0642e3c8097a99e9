// The tool-call channel end to end: agent (SDK client) -> agentctl -> Attach stream -> backend -> back.
// No backend: fail fast. Backend silent: inactivity timeout. Backend killed mid-call: the call fails at
// once and agentctl keeps serving. Backend back: calls work again. The backend accepts a call only for
// a session it launched on that agentctl; identity comes from the session, never from arguments.
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { type LaunchConfig, launchConfigToWire, mcpPathFor } from '@kandev/protocol';
import { agentctlClient, unary } from '../../helpers/agentctl-grpc';
import { openAttach } from '../../helpers/attach';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { openTestDatabase } from '@kandev/backend/testing';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { connectMcp, type McpConnection } from '../../helpers/mcp';
import {
  isPidAlive,
  killPid,
  startAgentctl,
  startBackend,
  stopProcess,
  TEST_CONTROL_TOKEN,
} from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';
import { waitUntil } from '../../helpers/wait';

const MCP_TOKEN = 'mcp-token-channel-test-0123456789abcdef0123';
const FORGED_TOKEN = 'mcp-token-forged-session-0123456789abcdef01';
const NO_BACKEND = /No backend is attached/;

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** CreateSession accepts only UUID session ids. */
const SESSION_ID = sessionUuid('channel');
const FORGED_SESSION_ID = 'f0f0f0f0-dead-4bee-8f00-0123456789ab';

/** The MCP-only session the agentctl-alone test registers itself (id SESSION_ID). */
const config = (overrides: Partial<LaunchConfig> = {}) =>
  namedLaunchConfig('channel', MCP_TOKEN, { taskId: 'task-1', ...overrides });

const text = (result: ToolResult) => result.content.map((c) => c.text).join('\n');

async function call(mcp: McpConnection, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

/** Calls until one gets through to a backend (attaching is asynchronous); returns that result. */
function callOnceAttached(mcp: McpConnection, name: string, logs: () => string): Promise<ToolResult> {
  return waitUntil(
    async () => {
      const result = await call(mcp, name);
      return NO_BACKEND.test(text(result)) ? undefined : result;
    },
    { timeoutMs: 10_000, intervalMs: 50, logs, what: 'the backend to attach' },
  );
}

const taskIdOf = (result: ToolResult) => (result.structuredContent?.task as { id?: string } | undefined)?.id;

describe('tool-call channel', () => {
  const cleanup = useCleanup();

  test('agentctl alone: fails fast without a backend; Attach needs the control token; latest attach wins', async () => {
    const daemon = await startAgentctl(cleanup);
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    await unary(grpc, grpc.CreateSession, launchConfigToWire(config()), TEST_CONTROL_TOKEN);
    const mcp = await connectMcp(
      cleanup,
      `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(SESSION_ID)}`,
      MCP_TOKEN,
    );

    // Refused at once as "no backend", not held for one: a held call would end with the inactivity timeout's
    // "did not answer" (after the 30 s default), never with this.
    const unattached = await call(mcp, 'get_task_kandev');
    expect(unattached.isError).toBe(true);
    expect(text(unattached)).toMatch(NO_BACKEND);

    for (const token of [null, 'wrong-control-token-0123456789abcdef0123456789']) {
      const impostor = openAttach(cleanup, grpc, token);
      impostor.send({ hello: { backend_id: 'impostor' } });
      expect((await impostor.ended).code).toBe(status.UNAUTHENTICATED);
    }
    expect(text(await call(mcp, 'get_task_kandev'))).toMatch(NO_BACKEND);

    // A hand-made backend: hello -> accepted; the call carries the session's identity and the agent's
    // arguments as given (a task_id argument is the backend's to judge, never the caller's identity).
    const first = openAttach(cleanup, grpc, TEST_CONTROL_TOKEN);
    first.send({ hello: { backend_id: 'backend-1' } });
    expect(await first.next()).toMatchObject({ accepted: { agentctl_id: expect.any(String) } });
    const progress: (string | undefined)[] = [];
    const answered = mcp.client.callTool({ name: 'get_task_kandev', arguments: { task_id: 'task-9' } }, undefined, {
      onprogress: (p) => progress.push(p.message),
    });
    const request = (await first.next()).tool_call;
    expect(request).toEqual({
      call_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      session_id: SESSION_ID,
      task_id: 'task-1',
      workspace_id: 'ws-1',
      tool_name: 'get_task_kandev',
      arguments_json: '{"task_id":"task-9"}',
      revision: '1',
    });
    const callId = request?.call_id ?? '';
    first.send({ tool_progress: { call_id: callId, message: 'reading' } });
    first.send({ tool_result: { call_id: callId, output: { text: 'task-9', structured_json: '{"id":"task-9"}' } } });
    expect(await answered).toMatchObject({
      content: [{ type: 'text', text: 'task-9' }],
      structuredContent: { id: 'task-9' },
    });
    expect(progress).toEqual(['reading']);

    // The latest Attach replaces the older one, which agentctl ends.
    const second = openAttach(cleanup, grpc, TEST_CONTROL_TOKEN);
    second.send({ hello: { backend_id: 'backend-2' } });
    expect(await second.next()).toHaveProperty('accepted');
    expect(await first.ended).toMatchObject({ code: status.FAILED_PRECONDITION });
    const refused = call(mcp, 'get_task_kandev');
    const refusedId = (await second.next()).tool_call?.call_id ?? '';
    second.send({ tool_result: { call_id: refusedId, error: { code: 'permission_denied', message: 'not yours' } } });
    expect(await refused).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'get_task_kandev failed (permission_denied): not yours' }],
    });

    // The stream drops while a call is in flight: the drop itself fails the call (its own error, not the
    // inactivity timeout's "did not answer" after 30 s).
    const inFlight = call(mcp, 'list_tasks_kandev');
    await second.next();
    second.cancel();
    expect(text(await inFlight)).toMatch(/connection dropped while list_tasks_kandev was running/);
    expect(text(await call(mcp, 'get_task_kandev'))).toMatch(NO_BACKEND);
    expect(await mcp.toolNames()).toContain('get_task_kandev');

    // An attached stream never holds up agentctl's graceful stop: it is ended with UNAVAILABLE.
    const last = openAttach(cleanup, grpc, TEST_CONTROL_TOKEN);
    last.send({ hello: { backend_id: 'backend-3' } });
    expect(await last.next()).toHaveProperty('accepted');
    expect(await stopProcess(daemon.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    expect(await last.ended).toMatchObject({ code: status.UNAVAILABLE });
  });

  test('through the backend: bound identity; silent backend times out; killed backend fails the call; re-attach', async () => {
    const env = { KANDEV_AGENTCTL_TOOL_CALL_TIMEOUT_MS: '3000', KANDEV_TOOL_CALL_HEARTBEAT_MS: '200' };
    const backend = await startBackend(cleanup, env);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const task = await api.task(await api.workspace('mine'), { title: 'caller' });
    const foreign = await api.task(await api.workspace('theirs'), { title: 'foreign secret' });
    const session = await api.launch(task.id);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    const tools = await mcp.toolNames();
    const agentctlLog = join(backend.dataDir, 'agentctl.log');
    const logs = () => `${backend.logs()}\n${readFileSync(agentctlLog, 'utf8')}`;

    // A round trip through a real handler; the caller is the session's task, whatever the arguments say.
    const own = await callOnceAttached(mcp, 'get_task_kandev', logs);
    expect(own.isError).toBeFalsy();
    expect(taskIdOf(own)).toBe(task.id);
    const forged = await call(mcp, 'get_task_kandev', { task_id: foreign.id });
    expect(forged.isError).toBe(true);
    expect(text(forged)).not.toContain('foreign secret');

    // A stopped backend answers nothing and sends no heartbeats: the inactivity timeout fires. The call was
    // forwarded (not refused for want of a backend), and no progress reached the agent before its result
    // (progress travels on the call's own stream, ahead of the result). How long the window is, with and
    // without heartbeats, is the unit tests' (fake timers) to check.
    const forwarded = () => (readFileSync(agentctlLog, 'utf8').match(/"msg":"tool call forwarded"/g) ?? []).length;
    const forwardedBefore = forwarded();
    backend.child.kill('SIGSTOP');
    const silentProgress: (string | undefined)[] = [];
    const silent = (await mcp.client.callTool({ name: 'get_task_kandev', arguments: {} }, undefined, {
      onprogress: (p) => silentProgress.push(p.message),
    })) as ToolResult;
    expect(text(silent)).toMatch(/^The backend did not answer within 3000 ms/);
    expect(forwarded()).toBe(forwardedBefore + 1);
    expect(silentProgress).toEqual([]);

    // Killed while a call is in flight: the stream drops and the call fails at once.
    const before = forwarded();
    const inFlight = call(mcp, 'list_tasks_kandev');
    await waitUntil(() => forwarded() > before, { timeoutMs: 5_000, logs, what: 'the call to be forwarded' });
    backend.child.kill('SIGKILL');
    await once(backend.child, 'exit');
    expect(text(await inFlight)).toMatch(/connection dropped while list_tasks_kandev was running/);

    // agentctl keeps serving discovery, and calls fail fast until a backend is back.
    expect(isPidAlive(backend.ready.agentctl.pid)).toBe(true);
    expect(await mcp.toolNames()).toEqual(tools);
    expect(text(await call(mcp, 'get_task_kandev'))).toMatch(NO_BACKEND);

    const restarted = await startBackend(cleanup, { ...env, KANDEV_DATA_DIR: backend.dataDir });
    expect(restarted.ready.agentctl.pid).toBe(backend.ready.agentctl.pid);
    expect(taskIdOf(await callOnceAttached(mcp, 'get_task_kandev', restarted.logs))).toBe(task.id);
  });

  test('a call for a session launched on another agentctl, or never launched, is refused and creates nothing', async () => {
    const backend = await startBackend(cleanup, { KANDEV_AGENTCTL_TOKEN: TEST_CONTROL_TOKEN });
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace();
    const first = await api.task(workspaceId, { title: 'launched on the first agentctl' });
    const old = await api.launch(first.id);

    // The first agentctl dies; the backend starts another one at once (on the same ports) and attaches.
    killPid(backend.ready.agentctl.pid);
    await waitUntil(() => !isPidAlive(backend.ready.agentctl.pid), { timeoutMs: 5_000, what: 'agentctl to die' });
    await waitUntil(
      async () => {
        const body = (await api.request<{ pid: number; reachable: boolean }>('GET', '/api/agentctl')).body;
        return body.reachable && body.pid !== backend.ready.agentctl.pid;
      },
      { timeoutMs: 20_000, logs: backend.logs, what: 'a new agentctl' },
    );
    const current = await api.launch((await api.task(workspaceId, { title: 'second' })).id);
    const grpcAddress = (await api.request<{ grpc_address: string }>('GET', '/api/agentctl')).body.grpc_address;
    const live = await connectMcp(cleanup, current.mcp_url, current.mcp_token);
    await callOnceAttached(live, 'get_task_kandev', backend.logs);

    // The old session's row names an agentctl that is gone (the repair restored it on the new one: move
    // it back by hand and drop it there), then replay it on the new agentctl, and forge one.
    const grpc = agentctlClient(cleanup, Number(grpcAddress.split(':').pop()));
    const origin = new URL(current.mcp_url).origin;
    const replay = { sessionId: old.session_id, taskId: first.id, workspaceId, mcpToken: MCP_TOKEN };
    const forgedSession = { sessionId: FORGED_SESSION_ID, taskId: first.id, workspaceId, mcpToken: FORGED_TOKEN };
    const db = await openTestDatabase(backend.dataDir);
    cleanup.defer(() => db.destroy());
    await db('sessions').where({ id: old.session_id }).update({ agentctl_address: '127.0.0.1:1' });
    await unary(grpc, grpc.StopSession, { session_id: old.session_id }, TEST_CONTROL_TOKEN);
    const countTasks = async () => Number((await db('tasks').count({ n: '*' }))[0]?.n);
    const tasksBefore = await countTasks();

    for (const [launch, reason] of [
      [replay, /was not launched on this agentctl/],
      [forgedSession, new RegExp(`session ${FORGED_SESSION_ID} does not exist`)],
    ] as const) {
      await unary(grpc, grpc.CreateSession, launchConfigToWire(config(launch)), TEST_CONTROL_TOKEN);
      const mcp = await connectMcp(cleanup, `${origin}${mcpPathFor(launch.sessionId)}`, launch.mcpToken);
      const result = await call(mcp, 'create_task_kandev', { title: 'must not exist' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(reason);
    }
    expect(await countTasks()).toBe(tasksBefore);
  });
});
