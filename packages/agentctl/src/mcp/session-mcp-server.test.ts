import { AppError, selectTools, toolContextFromConfig } from '@kandev/protocol';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolResultSchema,
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SessionRegistry } from '../sessions/session-registry';
import { FakeAgentLauncher } from '../testing/fake-session-agent';
import { launchConfig } from '../testing/launch-config-fixture';
import { silentLogger } from '../testing/silent-logger';
import { ToolSetCache } from '../tools/tool-set-cache';
import { NoBackendForwarder } from './no-backend-forwarder';
import { createSessionMcpServer } from './session-mcp-server';
import type { ForwardOptions, ToolCall, ToolCallForwarder } from './tool-call-forwarder';

/** A real SDK client linked in memory to the per-connection server of a registered session. */
async function connect(registry: SessionRegistry, sessionId: string, forwarder: ToolCallForwarder) {
  const session = registry.find(sessionId);
  if (session === undefined) throw new Error('no session');
  const server: Server = createSessionMcpServer(session, forwarder, silentLogger);
  const client = new Client({ name: 'wiring-test', version: '0' });
  let listChanged = 0;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    listChanged += 1;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  session.addConnection({
    id: `in-memory-${session.connectionList().length}`,
    notifyToolsChanged: () => server.sendToolListChanged(),
    close: () => server.close(),
  });
  /** Every notification sent before a request is delivered before its response (one ordered stream). */
  const settledListChanged = async () => {
    await client.ping();
    return listChanged;
  };
  return { client, settledListChanged, close: () => client.close() };
}

function setup(config = launchConfig()) {
  const registry = new SessionRegistry({
    toolSets: new ToolSetCache(),
    agents: new FakeAgentLauncher(),
    log: silentLogger,
  });
  return { registry, created: registry.create(config) };
}

describe('per-connection MCP server (real SDK client, in memory)', () => {
  test('tools/list is exactly the selection for the session', async () => {
    const config = launchConfig({ questionCapability: 'parent', providers: ['gitlab'], ownsTaskTitle: true });
    const { registry, created } = setup(config);
    await created;
    const mcp = await connect(registry, 'session-1', new NoBackendForwarder());
    const listed = await mcp.client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(
      selectTools(toolContextFromConfig(config)).map((t) => t.name),
    );
    expect(listed.tools.every((tool) => tool.inputSchema.additionalProperties === false)).toBe(true);
    await mcp.close();
  });

  test('a tool that is not in the current list fails as a protocol error', async () => {
    const { registry, created } = setup();
    await created;
    const mcp = await connect(registry, 'session-1', new NoBackendForwarder());
    await expect(mcp.client.callTool({ name: 'get_task_pr_automation_kandev', arguments: {} })).rejects.toThrow(
      /unknown or unavailable tool/,
    );
    await expect(mcp.client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /unknown or unavailable/,
    );
    await mcp.close();
  });

  test('bad arguments fail with the schema issues and are never forwarded', async () => {
    const { registry, created } = setup();
    await created;
    const forward = jest.fn<Promise<never>, [ToolCall]>();
    const mcp = await connect(registry, 'session-1', { forward });
    await expect(
      mcp.client.callTool({ name: 'update_task_kandev', arguments: { task_id: 't', autopilot: true } }),
    ).rejects.toThrow(/invalid arguments for update_task_kandev/);
    await expect(mcp.client.callTool({ name: 'message_task_kandev', arguments: { task_id: 't' } })).rejects.toThrow(
      /prompt/,
    );
    expect(forward).not.toHaveBeenCalled();
    await mcp.close();
  });

  test.each([
    [
      { name: 'list_tasks_kandev', arguments: ['self'] },
      /params\.arguments for list_tasks_kandev must be an object.*not an array/,
    ],
    [{ name: 'list_tasks_kandev', arguments: 'parent_id=self' }, /must be an object of named arguments, not a string/],
    [{ name: 'list_tasks_kandev', arguments: null }, /not null/],
    [{ arguments: {} }, /tools\/call needs params\.name/],
    [{ name: 42 }, /tools\/call needs params\.name/],
  ])('malformed tools/call params %j: -32602 with a readable message, never forwarded', async (params, message) => {
    const { registry, created } = setup();
    await created;
    const forward = jest.fn<Promise<never>, [ToolCall]>();
    const mcp = await connect(registry, 'session-1', { forward });
    // A raw request: the SDK client's callTool would not send these shapes.
    const failure = await mcp.client.request({ method: 'tools/call', params }, CallToolResultSchema).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(message) });
    expect((failure as McpError).message).not.toMatch(/"code":|invalid_type/);
    expect(forward).not.toHaveBeenCalled();
    await mcp.close();
  });

  test('a valid call with no backend attached returns a structured isError result', async () => {
    const { registry, created } = setup();
    await created;
    const mcp = await connect(registry, 'session-1', new NoBackendForwarder());
    const result = await mcp.client.callTool({ name: 'list_tasks_kandev', arguments: { parent_id: 'self' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/No backend is attached.*list_tasks_kandev was not performed/);
    await mcp.close();
  });

  test('forwarded calls carry the bound identity; an AppError becomes an isError result', async () => {
    const { registry, created } = setup(launchConfig({ sessionId: 's-9', taskId: 'task-9' }));
    await created;
    const calls: ToolCall[] = [];
    const forwarder: ToolCallForwarder = {
      forward: (call) => {
        calls.push(call);
        return Promise.reject(new AppError('not_found', 'task t-404 does not exist; list tasks first'));
      },
    };
    const mcp = await connect(registry, 's-9', forwarder);
    const result = await mcp.client.callTool({ name: 'get_task_kandev', arguments: { task_id: 't-404' } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/t-404/) }] });
    expect(calls).toEqual([
      {
        sessionId: 's-9',
        taskId: 'task-9',
        workspaceId: 'workspace-1',
        revision: 1,
        tool: 'get_task_kandev',
        arguments: { task_id: 't-404' },
      },
    ]);
    await mcp.close();
  });

  test('backend progress reaches the agent as notifications/progress when it sent a progressToken', async () => {
    const { registry, created } = setup();
    await created;
    const forwarder: ToolCallForwarder = {
      forward: (_call, options) => {
        options?.onProgress?.('waiting for the operator');
        options?.onProgress?.('still waiting');
        return Promise.resolve({ content: [{ type: 'text', text: 'answered' }] });
      },
    };
    const mcp = await connect(registry, 'session-1', forwarder);
    const progress: { progress: number; message?: string }[] = [];
    const result = await mcp.client.callTool({ name: 'list_tasks_kandev', arguments: {} }, undefined, {
      onprogress: (p) => progress.push({ progress: p.progress, message: p.message }),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'answered' }]);
    expect(progress).toEqual([
      { progress: 1, message: 'waiting for the operator' },
      { progress: 2, message: 'still waiting' },
    ]);
    // Without a progressToken the relay is off (nothing to address a notification to).
    const seen: ForwardOptions[] = [];
    const quiet = await connect(registry, 'session-1', {
      forward: (_call, options) => {
        seen.push(options ?? {});
        return Promise.resolve({ content: [{ type: 'text', text: 'ok' }] });
      },
    });
    await quiet.client.callTool({ name: 'list_tasks_kandev', arguments: {} });
    expect(seen[0]?.onProgress).toBeUndefined();
    expect(seen[0]?.signal).toBeInstanceOf(AbortSignal);
    await Promise.all([mcp.close(), quiet.close()]);
  });

  test('provider updates: one list_changed per real change, none for a replay, new tools listed', async () => {
    const { registry, created } = setup();
    await created;
    const [a, b] = await Promise.all([
      connect(registry, 'session-1', new NoBackendForwarder()),
      connect(registry, 'session-1', new NoBackendForwarder()),
    ]);
    if (a === undefined || b === undefined) throw new Error('not connected');
    await registry.updateProviders({ sessionId: 'session-1', providers: ['gitlab'], revision: 2 });
    expect([await a.settledListChanged(), await b.settledListChanged()]).toEqual([1, 1]);
    expect((await a.client.listTools()).tools.map((t) => t.name)).toContain('update_task_mr_automation_kandev');

    await registry.updateProviders({ sessionId: 'session-1', providers: ['gitlab'], revision: 2 });
    await registry.updateProviders({ sessionId: 'session-1', providers: [], revision: 1 });
    expect([await a.settledListChanged(), await b.settledListChanged()]).toEqual([1, 1]);

    await registry.updateProviders({ sessionId: 'session-1', providers: [], revision: 3 });
    expect([await a.settledListChanged(), await b.settledListChanged()]).toEqual([2, 2]);
    await expect(a.client.callTool({ name: 'get_task_mr_automation_kandev', arguments: {} })).rejects.toThrow(
      /unknown or unavailable tool/,
    );
    await Promise.all([a.close(), b.close()]);
  });
});
