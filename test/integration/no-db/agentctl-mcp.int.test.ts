// agentctl's MCP endpoint against the real built daemon, with the official SDK client as the agent:
// per-session bearer auth, Host validation, exact tool lists, and live list_changed on provider updates.
import { request as httpRequest } from 'node:http';
import { type LaunchConfig, launchConfigToWire, mcpPathFor, type WireSessionStateOutput } from '@kandev/protocol';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { agentctlClient, pushProvider, pushProviders, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, finalListChangedCount, type McpConnection, rawInitialize } from '../../helpers/mcp';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';
import { KANBAN_CORE, MR_PAIR, PR_PAIR, sorted } from '../../helpers/tool-names';
import { sessionUuid } from '../../helpers/session-ids';
import { namedLaunchConfig } from '../../helpers/launch-configs';

type SessionState = WireSessionStateOutput;
interface Stopped {
  stopped: boolean;
}

const TOKEN_A = 'mcp-token-session-a-0123456789abcdef0123456789';
const TOKEN_B = 'mcp-token-session-b-0123456789abcdef0123456789';

/** Sessions are named in the test (a UUID on the wire); each has github unless overridden. */
const config = (name: string, mcpToken: string, overrides: Partial<LaunchConfig> = {}): LaunchConfig =>
  namedLaunchConfig(name, mcpToken, { providers: ['github'], ...overrides });

/** A raw HTTP request with a chosen Host header (fetch does not let a caller set Host). */
function requestWithHost(url: string, host: string, token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', headers: { host, authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('agentctl MCP endpoint', () => {
  const cleanup = useCleanup();

  async function setup(extraEnv: Record<string, string> = {}) {
    const daemon = await startAgentctl(cleanup, extraEnv);
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    const base = `http://127.0.0.1:${daemon.ready.mcpPort}`;
    const create = (c: LaunchConfig) =>
      unary<object, SessionState>(grpc, grpc.CreateSession, launchConfigToWire(c), TEST_CONTROL_TOKEN);
    /** One update alone in its StreamProviderUpdates call: what agentctl holds after it. */
    const updateProviders = async (sessionId: string, providers: string[], revision: string) =>
      (await pushProvider(grpc, { session_id: sessionUuid(sessionId), providers, revision }, TEST_CONTROL_TOKEN)).held;
    const updateBatch = (updates: { sessionId: string; providers: string[]; revision: string }[]) =>
      pushProviders(
        grpc,
        updates.map((u) => ({ session_id: u.sessionId, providers: u.providers, revision: u.revision })),
        TEST_CONTROL_TOKEN,
      );
    const getSession = (sessionId: string) =>
      unary<object, SessionState>(grpc, grpc.GetSession, { session_id: sessionUuid(sessionId) }, TEST_CONTROL_TOKEN);
    const stopSession = (sessionId: string) =>
      unary<object, Stopped>(grpc, grpc.StopSession, { session_id: sessionUuid(sessionId) }, TEST_CONTROL_TOKEN);
    const url = (sessionId: string) => `${base}${mcpPathFor(sessionUuid(sessionId))}`;
    return { daemon, base, url, create, updateProviders, updateBatch, getSession, stopSession };
  }

  async function streaming(connection: McpConnection, logs: () => string): Promise<McpConnection> {
    await waitUntil(() => connection.notificationStreamOpen(), { timeoutMs: 5_000, logs, what: 'the SSE stream' });
    return connection;
  }

  test('bearer per session: missing, wrong or another session token, or an unknown session -> the same 401', async () => {
    const { url, create } = await setup();
    await create(config('a', TOKEN_A));
    await create(config('b', TOKEN_B));
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${TOKEN_B}` },
    ];
    for (const headers of refused) {
      const response = await rawInitialize(url('a'), headers);
      expect({ headers, status: response.status, challenge: response.headers.get('www-authenticate') }).toEqual({
        headers,
        status: 401,
        challenge: expect.stringMatching(/^Bearer/) as string,
      });
    }
    expect((await rawInitialize(url('a'), { authorization: `Bearer ${TOKEN_A}` })).status).toBe(200);
  });

  test('the port does not tell who exists: an unknown session and a wrong token get the identical 401', async () => {
    const { base, url, create } = await setup();
    await create(config('a', TOKEN_A));
    const refusal = async (target: string, headers: Record<string, string>) => {
      const response = await rawInitialize(target, headers);
      return {
        status: response.status,
        challenge: response.headers.get('www-authenticate'),
        contentType: response.headers.get('content-type'),
        body: await response.text(),
      };
    };
    const wrongToken = await refusal(url('a'), { authorization: 'Bearer wrong-token' });
    expect(wrongToken).toMatchObject({ status: 401, challenge: expect.stringMatching(/^Bearer/) as string });
    const probes: [string, Record<string, string>][] = [
      [url('nobody'), { authorization: `Bearer ${TOKEN_A}` }],
      [url('nobody'), { authorization: 'Bearer wrong-token' }],
      [url('nobody'), {}],
      [url('a'), {}],
      [`${base}/sessions/not-even-a-uuid/mcp`, { authorization: `Bearer ${TOKEN_A}` }],
    ];
    for (const [target, headers] of probes) {
      expect({ target, headers, refusal: await refusal(target, headers) }).toEqual({
        target,
        headers,
        refusal: wrongToken,
      });
    }
  });

  test('Host header: foreign -> 403, localhost names and configured extras accepted; /healthz', async () => {
    const { base, url, create } = await setup({ KANDEV_AGENTCTL_ALLOWED_HOSTS: 'agentctl.internal' });
    await create(config('a', TOKEN_A));
    expect(await requestWithHost(url('a'), 'evil.example:80', TOKEN_A)).toBe(403);
    // Accepted hosts get past validation to the MCP endpoint (a GET without mcp-session-id is a 400 there).
    for (const host of ['localhost:1234', '127.0.0.1', '[::1]:9', 'agentctl.internal']) {
      expect({ host, status: await requestWithHost(url('a'), host, TOKEN_A) }).toEqual({ host, status: 400 });
    }
    const health = await fetch(`${base}/healthz`);
    expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok' } });
  });

  test('bodies over 1 MB are refused with 413; malformed JSON with 400; unknown routes 404', async () => {
    const { base, url, create } = await setup();
    await create(config('a', TOKEN_A));
    const post = (body: string) =>
      fetch(url('a'), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TOKEN_A}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { pad: 'x'.repeat(1_100_000) },
    });
    expect((await post(huge)).status).toBe(413);
    const malformed = await post('{"jsonrpc":');
    expect({ status: malformed.status, body: await malformed.json() }).toMatchObject({
      status: 400,
      body: { error: { code: -32700 } },
    });
    expect((await fetch(`${base}/elsewhere`)).status).toBe(404);
  });

  test('an mcp-session-id of another runtime session is never served', async () => {
    const { url, create } = await setup();
    await create(config('a', TOKEN_A));
    await create(config('b', TOKEN_B));
    const a = await connectMcp(cleanup, url('a'), TOKEN_A);
    const mcpSessionId = (a.client.transport as StreamableHTTPClientTransport).sessionId ?? '';
    expect(mcpSessionId).not.toBe('');
    const response = await fetch(url('b'), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN_B}`,
        'mcp-session-id': mcpSessionId,
        'mcp-protocol-version': '2025-06-18',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    expect(await a.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR]));
  });

  test('the SDK client lists exactly the session tools; connection_count follows connections', async () => {
    const { url, create, getSession } = await setup();
    await create(config('child', TOKEN_A, { questionCapability: 'parent', providers: ['gitlab'] }));
    const mcp = await connectMcp(cleanup, url('child'), TOKEN_A);
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_parent_question_kandev', ...MR_PAIR]));
    const second = await connectMcp(cleanup, url('child'), TOKEN_A);
    expect((await getSession('child')).connection_count).toBe(2);
    await second.client.close();
    const result = await mcp.client.callTool({ name: 'get_task_kandev', arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/no backend is attached/i);
  });

  test('provider updates: one list_changed per real change, none for a replay or a stale push', async () => {
    const { daemon, url, create, updateProviders, stopSession } = await setup();
    await create(config('live', TOKEN_A));
    const mcp = await streaming(await connectMcp(cleanup, url('live'), TOKEN_A), daemon.logs);
    const logs = daemon.logs;

    const added = await updateProviders('live', ['PROVIDER_GITHUB', 'PROVIDER_GITLAB'], '2');
    expect(added).toMatchObject({ outcome: 'UPDATE_OUTCOME_APPLIED', tools_changed: true });
    await waitUntil(() => mcp.listChangedCount() === 1, { timeoutMs: 5_000, logs, what: 'first list_changed' });
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR, ...MR_PAIR]));

    const replay = await updateProviders('live', ['PROVIDER_GITHUB', 'PROVIDER_GITLAB'], '2');
    expect(replay).toMatchObject({ outcome: 'UPDATE_OUTCOME_UNCHANGED', tools_changed: false });
    const stale = await updateProviders('live', [], '1');
    expect(stale).toMatchObject({ outcome: 'UPDATE_OUTCOME_STALE', tools_changed: false });
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR, ...MR_PAIR]));

    // A later real change arrives as the second notification: the replay and the stale push sent none.
    const removed = await updateProviders('live', ['PROVIDER_GITLAB'], '3');
    expect(removed).toMatchObject({ outcome: 'UPDATE_OUTCOME_APPLIED', tools_changed: true });
    await waitUntil(() => mcp.listChangedCount() >= 2, { timeoutMs: 5_000, logs, what: 'second list_changed' });
    expect(mcp.listChangedCount()).toBe(2);
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...MR_PAIR]));
    await expect(mcp.client.callTool({ name: 'get_task_pr_automation_kandev', arguments: {} })).rejects.toThrow(
      /unknown or unavailable tool/,
    );
    // Stopping the session ends the notification stream after every notification sent on it.
    expect(await stopSession('live')).toEqual({ stopped: true });
    expect(await finalListChangedCount(mcp, logs)).toBe(2);
  });

  test('a batch of provider updates: each applied in order; a refused one is its own result, the rest apply', async () => {
    const { daemon, url, create, updateBatch, getSession } = await setup();
    await create(config('one', TOKEN_A));
    await create(config('two', TOKEN_B));
    const one = await streaming(await connectMcp(cleanup, url('one'), TOKEN_A), daemon.logs);
    const gitlab = ['PROVIDER_GITHUB', 'PROVIDER_GITLAB'];

    const batch = await updateBatch([
      { sessionId: sessionUuid('one'), providers: gitlab, revision: '2' },
      { sessionId: sessionUuid('missing'), providers: gitlab, revision: '2' },
      { sessionId: sessionUuid('two'), providers: [], revision: '2' },
      { sessionId: sessionUuid('two'), providers: gitlab, revision: '2' }, // same revision, other set
      { sessionId: '', providers: gitlab, revision: '3' },
    ]);
    expect(batch.map((r) => [r.session_id, r.outcome, r.held?.outcome ?? r.error?.code])).toEqual([
      [sessionUuid('one'), 'held', 'UPDATE_OUTCOME_APPLIED'],
      [sessionUuid('missing'), 'error', 'not_found'],
      [sessionUuid('two'), 'held', 'UPDATE_OUTCOME_APPLIED'],
      [sessionUuid('two'), 'error', 'failed_precondition'],
      ['', 'error', 'invalid_argument'],
    ]);
    expect(batch[0]?.held).toMatchObject({ revision: '2', providers: gitlab, tools_changed: true });
    expect(batch[0]?.held?.tool_names).toEqual(expect.arrayContaining(MR_PAIR));
    await waitUntil(() => one.listChangedCount() === 1, { timeoutMs: 5_000, logs: daemon.logs, what: 'list_changed' });
    expect((await getSession('two')).config).toMatchObject({ revision: '2', providers: [] });
    expect(await updateBatch([])).toEqual([]);
  });

  test('StopSession closes the connections and the endpoint disappears (401 like any unknown session)', async () => {
    const { url, create, stopSession, getSession } = await setup();
    await create(config('gone', TOKEN_A));
    const mcp = await connectMcp(cleanup, url('gone'), TOKEN_A);
    expect((await getSession('gone')).connection_count).toBe(1);
    expect(await stopSession('gone')).toEqual({ stopped: true });
    await expect(mcp.client.listTools()).rejects.toThrow();
    expect((await rawInitialize(url('gone'), { authorization: `Bearer ${TOKEN_A}` })).status).toBe(401);
  });

  test('a resume with a new token closes old connections; the new token works, the old one does not', async () => {
    const { url, create, getSession } = await setup();
    await create(config('resumed', TOKEN_A));
    const old = await connectMcp(cleanup, url('resumed'), TOKEN_A);
    const state = await create(config('resumed', TOKEN_B, { revision: 2, ownsTaskTitle: true }));
    expect(state.connection_count).toBe(0);
    await expect(old.client.listTools()).rejects.toThrow();
    expect((await rawInitialize(url('resumed'), { authorization: `Bearer ${TOKEN_A}` })).status).toBe(401);
    const fresh = await connectMcp(cleanup, url('resumed'), TOKEN_B);
    expect(await fresh.toolNames()).toContain('set_task_title_kandev');
    expect((await getSession('resumed')).connection_count).toBe(1);
  });
});
