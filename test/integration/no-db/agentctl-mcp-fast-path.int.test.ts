// agentctl answers a connection's plain tools/list POST from a body serialised once per tool set, and
// holds the GET stream itself (mcp/mcp-connection.ts): checked here on the wire against the real daemon,
// next to what the SDK path answers for the same connection.
import { launchConfigToWire, mcpPathFor, type WireSessionStateOutput } from '@kandev/protocol';
import { agentctlClient, pushProvider, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { namedLaunchConfig } from '../../helpers/launch-configs';
import { rawInitialize } from '../../helpers/mcp';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';
import { waitUntil } from '../../helpers/wait';

const TOKEN = 'mcp-token-fast-path-0123456789abcdef0123456789';
const VERSION = '2025-06-18';

interface ListAnswer {
  id: unknown;
  result: { tools: { name: string }[] };
}

describe('agentctl tools/list fast path and GET stream', () => {
  const cleanup = useCleanup();

  async function connected() {
    const daemon = await startAgentctl(cleanup);
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    const config = namedLaunchConfig('fast', TOKEN, { providers: ['github'] });
    await unary<object, WireSessionStateOutput>(
      grpc,
      grpc.CreateSession,
      launchConfigToWire(config),
      TEST_CONTROL_TOKEN,
    );
    const url = `http://127.0.0.1:${daemon.ready.mcpPort}${mcpPathFor(sessionUuid('fast'))}`;
    const init = await rawInitialize(url, { authorization: `Bearer ${TOKEN}` });
    await init.text();
    const mcpSessionId = init.headers.get('mcp-session-id') ?? '';
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      'mcp-session-id': mcpSessionId,
      'mcp-protocol-version': VERSION,
    };
    const post = (body: unknown, extra: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...extra,
        },
        body: JSON.stringify(body),
      });
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const updateProviders = (providers: string[], revision: string) =>
      pushProvider(grpc, { session_id: sessionUuid('fast'), providers, revision }, TEST_CONTROL_TOKEN);
    return { daemon, url, headers, mcpSessionId, post, updateProviders };
  }

  test('a plain tools/list is answered as JSON with the session id; a batch takes the SDK path, same tools', async () => {
    const { post, mcpSessionId } = await connected();
    const fast = await post({ jsonrpc: '2.0', id: 'list-1', method: 'tools/list' });
    expect(fast.status).toBe(200);
    expect(fast.headers.get('content-type')).toBe('application/json');
    expect(fast.headers.get('mcp-session-id')).toBe(mcpSessionId);
    const answer = (await fast.json()) as ListAnswer;
    expect(answer.id).toBe('list-1');

    const batch = await post([{ jsonrpc: '2.0', id: 9, method: 'tools/list' }]);
    expect(batch.headers.get('content-type')).toMatch(/text\/event-stream/);
    const event = /data: (.*)\n/.exec(await batch.text())?.[1] ?? '';
    expect(JSON.parse(event)).toEqual({ ...answer, id: 9 });
  });

  test('refusals match the SDK: unsupported version 400, JSON-only Accept 406, second GET stream 409', async () => {
    const { post, url, headers } = await connected();
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect((await post(list, { 'mcp-protocol-version': '1999-01-01' })).status).toBe(400);
    expect((await post(list, { accept: 'application/json' })).status).toBe(406);
    expect((await fetch(url, { headers: { ...headers, accept: 'application/json' } })).status).toBe(406);
    const stream = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect((await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } })).status).toBe(409);
    await stream.body?.cancel();
  });

  test('the GET stream carries list_changed, the next list shows the change, DELETE ends the stream', async () => {
    const { daemon, post, url, headers, updateProviders } = await connected();
    const stream = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' } });
    const reader = stream.body?.getReader();
    if (reader === undefined) throw new Error('no stream body');
    let received = '';
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += Buffer.from(value).toString('utf8');
      }
      ended = true;
    })();
    await updateProviders(['PROVIDER_GITHUB', 'PROVIDER_GITLAB'], '2');
    await waitUntil(() => received.includes('notifications/tools/list_changed'), {
      timeoutMs: 5_000,
      logs: daemon.logs,
      what: 'list_changed on the GET stream',
    });
    expect(received).toBe('event: message\ndata: {"method":"notifications/tools/list_changed","jsonrpc":"2.0"}\n\n');
    const answer = (await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).json()) as ListAnswer;
    expect(answer.result.tools.map((tool) => tool.name)).toContain('get_task_mr_automation_kandev');

    expect((await fetch(url, { method: 'DELETE', headers })).status).toBe(200);
    await reading;
    expect(ended).toBe(true);
    expect((await post({ jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(404);
  });
});
