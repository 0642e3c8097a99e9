import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { SessionRegistry } from '../sessions/session-registry';
import { FakeAgentLauncher } from '../testing/fake-session-agent';
import { launchConfig } from '../testing/launch-config-fixture';
import { silentLogger } from '../testing/silent-logger';
import { ToolSetCache } from '../tools/tool-set-cache';
import { NoBackendForwarder } from './no-backend-forwarder';
import { createSessionMcpServer } from './session-mcp-server';
import {
  getStreamRefusal,
  protocolVersionRefusal,
  postAcceptsAnswers,
  TOOLS_LIST_CHANGED_EVENT,
  toolsListRequestId,
  toolsListResponse,
} from './streamable-http';

async function registryWith(config = launchConfig()) {
  const registry = new SessionRegistry({
    toolSets: new ToolSetCache(),
    agents: new FakeAgentLauncher(),
    log: silentLogger,
  });
  await registry.create(config);
  const session = registry.find(config.sessionId);
  if (session === undefined) throw new Error('no session');
  return { registry, session };
}

/** What the SDK Server (the path every other request takes) answers to one raw JSON-RPC message. */
async function sdkAnswer(binding: Parameters<typeof createSessionMcpServer>[0], message: JSONRPCMessage) {
  const server = createSessionMcpServer(binding, new NoBackendForwarder(), silentLogger);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const answered = new Promise<JSONRPCMessage>((resolve) => {
    clientSide.onmessage = resolve;
  });
  await clientSide.start();
  await clientSide.send(message);
  const answer = await answered;
  await server.close();
  return answer;
}

describe('tools/list fast path', () => {
  test.each([
    ['a number id', { jsonrpc: '2.0', id: 7, method: 'tools/list' }, 7],
    ['a string id', { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} }, 'a'],
    ['a cursor and _meta', { jsonrpc: '2.0', id: 0, method: 'tools/list', params: { cursor: 'x', _meta: {} } }, 0],
  ])('takes one plain tools/list request: %s', (_name, body, id) => {
    expect(toolsListRequestId(body)).toBe(id);
  });

  test.each([
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]],
    ['a notification', { jsonrpc: '2.0', method: 'tools/list' }],
    ['a null id', { jsonrpc: '2.0', id: null, method: 'tools/list' }],
    ['a fractional id', { jsonrpc: '2.0', id: 1.5, method: 'tools/list' }],
    ['another method', { jsonrpc: '2.0', id: 1, method: 'tools/call' }],
    ['no jsonrpc version', { id: 1, method: 'tools/list' }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }],
    ['a numeric cursor', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 1 } }],
    ['no body', undefined],
  ])('leaves anything else to the SDK: %s', (_name, body) => {
    expect(toolsListRequestId(body)).toBeUndefined();
  });

  test.each([7, 'req-1'])('the pre-serialised answer is the SDK server answer (id %p)', async (id) => {
    const { session } = await registryWith(launchConfig({ providers: ['github', 'gitlab'], ownsTaskTitle: true }));
    const sdk = await sdkAnswer(session, { jsonrpc: '2.0', id, method: 'tools/list' });
    expect(JSON.parse(Buffer.concat(toolsListResponse(session.toolSet, id)).toString())).toEqual(sdk);
  });

  test('a provider update is reflected in the next answer; equal sets share one body', async () => {
    const { registry, session } = await registryWith(launchConfig({ providers: ['github'] }));
    await registry.create(launchConfig({ sessionId: 'session-2', providers: ['github'] }));
    expect(registry.find('session-2')?.toolSet.listResultJson).toBe(session.toolSet.listResultJson);
    const names = () =>
      (
        JSON.parse(Buffer.concat(toolsListResponse(session.toolSet, 1)).toString()) as {
          result: { tools: { name: string }[] };
        }
      ).result.tools.map((tool) => tool.name);
    expect(names()).not.toContain('get_task_mr_automation_kandev');
    await registry.updateProviders({ sessionId: session.sessionId, providers: ['github', 'gitlab'], revision: 2 });
    expect(names()).toContain('get_task_mr_automation_kandev');
    const sdk = await sdkAnswer(session, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(JSON.parse(Buffer.concat(toolsListResponse(session.toolSet, 1)).toString())).toEqual(sdk);
  });

  test('list_changed is framed as the SDK transport frames the notification', () => {
    expect(TOOLS_LIST_CHANGED_EVENT).toBe(
      'event: message\ndata: {"method":"notifications/tools/list_changed","jsonrpc":"2.0"}\n\n',
    );
  });
});

describe('Streamable HTTP checks on the hot paths', () => {
  const both = 'application/json, text/event-stream';

  test('a POST must accept both JSON and SSE', () => {
    expect(postAcceptsAnswers({ headers: { accept: both } })).toBe(true);
    expect(postAcceptsAnswers({ headers: { accept: 'application/json' } })).toBe(false);
    expect(postAcceptsAnswers({ headers: {} })).toBe(false);
  });

  test('a protocol version header is optional, and must be supported when sent', () => {
    expect(protocolVersionRefusal({ headers: {} })).toBeUndefined();
    expect(protocolVersionRefusal({ headers: { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION } })).toBeUndefined();
    expect(protocolVersionRefusal({ headers: { 'mcp-protocol-version': '1999-01-01' } })).toMatchObject({
      status: 400,
      message: expect.stringContaining('Unsupported protocol version: 1999-01-01') as unknown,
    });
  });

  test('a GET stream: SSE accepted, supported version, one stream per connection', () => {
    expect(getStreamRefusal({ headers: { accept: 'text/event-stream' } }, false)).toBeUndefined();
    expect(getStreamRefusal({ headers: { accept: 'application/json' } }, false)?.status).toBe(406);
    const badVersion = { accept: 'text/event-stream', 'mcp-protocol-version': 'x' };
    expect(getStreamRefusal({ headers: badVersion }, false)?.status).toBe(400);
    expect(getStreamRefusal({ headers: { accept: 'text/event-stream' } }, true)?.status).toBe(409);
  });
});
