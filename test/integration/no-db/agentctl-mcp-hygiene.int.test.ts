// agentctl's MCP listener under abuse, against the real built daemon: connection caps (429 with a
// JSON-RPC reason), idle connections closed and freed (memory included), 4xx for malformed requests
// (the same on the direct path of a GET stream or a POST as through Express), and HTTP timeouts for clients that
// never finish a request.
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { type LaunchConfig, launchConfigToWire, mcpPathFor, type WireSessionStateOutput } from '@kandev/protocol';
import { agentctlClient, unary } from '../../helpers/agentctl-grpc';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, rawInitialize } from '../../helpers/mcp';
import { startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';
import { sessionUuid } from '../../helpers/session-ids';
import { closedByServer, IDLE_AFTER_REQUEST, INCOMPLETE_BODY, INCOMPLETE_HEADERS } from '../../helpers/slow-client';
import { waitUntil } from '../../helpers/wait';
import { namedLaunchConfig } from '../../helpers/launch-configs';

const TOKEN = 'mcp-token-hygiene-0123456789abcdef0123456789';

/** Sessions are named in the test; on the wire each name is a UUID. */
const config = (name: string): LaunchConfig => namedLaunchConfig(name, TOKEN);

/** Resident set size of a live process, from the kernel (bytes). */
function rssBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (match?.[1] === undefined) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

const AUTH = { authorization: `Bearer ${TOKEN}` };

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '0' } },
});

/**
 * `count` initialize POSTs, 32 at a time over keep-alive sockets, each read to its end and never
 * followed by a DELETE (a client that goes away). `onStatus` sees every answer.
 */
async function abandonedInitializes(
  url: string,
  count: number,
  onStatus: (status: number, sent: number) => Promise<void>,
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const headers = {
    ...AUTH,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': String(Buffer.byteLength(INITIALIZE)),
  };
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(INITIALIZE);
    });
  let sent = 0;
  const worker = async () => {
    while (sent < count) {
      sent += 1;
      const n = sent;
      await onStatus(await post(), n);
    }
  };
  try {
    await Promise.all(Array.from({ length: 32 }, worker));
  } finally {
    agent.destroy();
  }
}

describe('agentctl MCP connection hygiene', () => {
  const cleanup = useCleanup();

  async function setup(env: Record<string, string>, sessions: string[] = ['a']) {
    const daemon = await startAgentctl(cleanup, { LOG_LEVEL: 'info', ...env });
    const grpc = agentctlClient(cleanup, daemon.ready.grpcPort);
    for (const name of sessions) {
      await unary(grpc, grpc.CreateSession, launchConfigToWire(config(name)), TEST_CONTROL_TOKEN);
    }
    const connectionCount = async (name: string) =>
      (
        await unary<object, WireSessionStateOutput>(
          grpc,
          grpc.GetSession,
          { session_id: sessionUuid(name) },
          TEST_CONTROL_TOKEN,
        )
      ).connection_count;
    const path = (name: string) => mcpPathFor(sessionUuid(name));
    const url = (name: string) => `http://127.0.0.1:${daemon.ready.mcpPort}${path(name)}`;
    return { daemon, connectionCount, path, url };
  }

  test('caps: past the per-session or per-agentctl limit an initialize gets 429 and a JSON-RPC reason', async () => {
    const { url } = await setup({ KANDEV_MCP_MAX_CONNECTIONS_PER_SESSION: '2', KANDEV_MCP_MAX_CONNECTIONS: '3' }, [
      'a',
      'b',
    ]);
    const first = await rawInitialize(url('a'), AUTH);
    expect([first.status, (await rawInitialize(url('a'), AUTH)).status]).toEqual([200, 200]);
    const perSession = await rawInitialize(url('a'), AUTH);
    expect({ status: perSession.status, body: await perSession.json() }).toEqual({
      status: 429,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/this session already has 2 .*\(limit 2\)/) },
      },
    });
    expect((await rawInitialize(url('b'), AUTH)).status).toBe(200);
    const perAgentctl = await rawInitialize(url('b'), AUTH);
    expect({ status: perAgentctl.status, body: await perAgentctl.json() }).toMatchObject({
      status: 429,
      body: { error: { code: -32000, message: expect.stringMatching(/agentctl already holds 3 .*\(limit 3\)/) } },
    });
    // A DELETE frees its slot at once.
    const deleted = await fetch(url('a'), {
      method: 'DELETE',
      headers: { ...AUTH, 'mcp-session-id': first.headers.get('mcp-session-id') ?? '' },
    });
    expect(deleted.status).toBe(200);
    expect((await rawInitialize(url('b'), AUTH)).status).toBe(200);
  });

  test('an abandoned connection is closed after the idle timeout; one with an open stream stays', async () => {
    const { daemon, connectionCount, url } = await setup({ KANDEV_MCP_IDLE_TIMEOUT_MS: '2000' });
    const agent = await connectMcp(cleanup, url('a'), TOKEN);
    await waitUntil(() => agent.notificationStreamOpen(), { timeoutMs: 5_000, logs: daemon.logs, what: 'SSE' });
    // Opened after the agent's, so it would not outlive the agent's if streams did not count.
    expect((await rawInitialize(url('a'), AUTH)).status).toBe(200);
    expect(await connectionCount('a')).toBe(2);
    await waitUntil(async () => (await connectionCount('a')) === 1, {
      timeoutMs: 10_000,
      logs: daemon.logs,
      what: 'the abandoned connection to time out',
    });
    expect((await agent.toolNames()).length).toBeGreaterThan(0);
  });

  test('5,000 abandoned initializes: never more than the cap, all freed, RSS back within 20 MB', async () => {
    const cap = 16;
    const { daemon, connectionCount, url } = await setup({
      KANDEV_MCP_IDLE_TIMEOUT_MS: '1000',
      // A small young generation, so V8's own heap sizing (collectible garbage kept until its memory
      // reducer runs) neither hides nor mimics a leak: leaked connections stay live whatever the flags.
      NODE_OPTIONS: '--max-semi-space-size=1',
    });
    const pid = daemon.child.pid ?? 0;
    const flood = async (count: number) => {
      const statuses = new Map<number, number>();
      let peak = 0;
      await abandonedInitializes(url('a'), count, async (status, sent) => {
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (sent % 250 === 0) peak = Math.max(peak, await connectionCount('a'));
      });
      return { statuses, peak };
    };
    const allIdle = () =>
      waitUntil(async () => (await connectionCount('a')) === 0, {
        timeoutMs: 15_000,
        logs: daemon.logs,
        what: 'every abandoned connection to time out',
      });
    // Warm up (lazy modules, JIT, the heap's working size) before the baseline.
    await flood(1_000);
    await allIdle();
    const baseline = rssBytes(pid);

    const { statuses, peak } = await flood(5_000);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
    expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(5_000);
    expect(peak).toBeLessThanOrEqual(cap);
    expect(await connectionCount('a')).toBeLessThanOrEqual(cap);

    await allIdle();
    const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
    await waitUntil(() => rssBytes(pid) - baseline < 20 * 1024 * 1024, {
      timeoutMs: 45_000,
      intervalMs: 250,
      what: `RSS within 20 MB of ${mb(baseline)} MB (now ${mb(rssBytes(pid))} MB)`,
    });
  }, 120_000);

  test('malformed input: bad percent-encoding and an empty batch are 4xx, not 5xx or 202', async () => {
    const { daemon, url } = await setup({});
    const badPath = await rawInitialize(`http://127.0.0.1:${daemon.ready.mcpPort}/sessions/%ZZ/mcp`, AUTH);
    expect({ status: badPath.status, body: await badPath.json() }).toEqual({
      status: 400,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringMatching(/percent-encoding/) } },
    });
    const batch = await fetch(url('a'), {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '[]',
    });
    expect({ status: batch.status, body: await batch.json() }).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: expect.stringMatching(/empty JSON-RPC batch/) },
      },
    });
  });

  test('a GET stream request is refused alike on the exact path (served without Express) and through Express', async () => {
    const { daemon, url } = await setup({});
    const base = `http://127.0.0.1:${daemon.ready.mcpPort}`;
    const answer = async (target: string, headers: Record<string, string>) => {
      const response = await fetch(target, { headers: { accept: 'text/event-stream', ...headers } });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        challenge: response.headers.get('www-authenticate'),
        body: await response.json(),
      };
    };
    const cases: [string, string, Record<string, string>, number][] = [
      ['bad percent-encoding', `${base}/sessions/%ZZ/mcp`, AUTH, 400],
      ['wrong token', url('a'), { authorization: 'Bearer wrong' }, 401],
      ['unknown session', `${base}/sessions/${sessionUuid('nobody')}/mcp`, AUTH, 401],
      ['no mcp-session-id', url('a'), AUTH, 400],
      ['unknown mcp-session-id', url('a'), { ...AUTH, 'mcp-session-id': 'not-a-connection' }, 404],
    ];
    for (const [what, target, headers, status] of cases) {
      // The trailing slash is the same route to Express, and not the exact path the direct handler takes.
      const direct = await answer(target, headers);
      expect({ what, status: direct.status }).toEqual({ what, status });
      expect({ what, ...(await answer(`${target}/`, headers)) }).toEqual({ what, ...direct });
    }
  });

  test('a POST is refused alike on the exact path (served without Express) and through Express', async () => {
    const { daemon, url } = await setup({});
    const base = `http://127.0.0.1:${daemon.ready.mcpPort}`;
    const json = { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const answer = async (target: string, headers: Record<string, string>, body: string) => {
      const response = await fetch(target, { method: 'POST', headers, body });
      return {
        status: response.status,
        type: response.headers.get('content-type'),
        challenge: response.headers.get('www-authenticate'),
        body: await response.json(),
      };
    };
    const listTools = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const cases: [string, string, Record<string, string>, string, number][] = [
      ['bad percent-encoding', `${base}/sessions/%ZZ/mcp`, json, listTools, 400],
      ['wrong token', url('a'), { ...json, authorization: 'Bearer wrong' }, listTools, 401],
      ['unknown session', `${base}/sessions/${sessionUuid('nobody')}/mcp`, json, listTools, 401],
      ['not JSON', url('a'), json, '{"jsonrpc":', 400],
      ['over 1 MB', url('a'), json, JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }), 413],
      ['an empty batch', url('a'), json, '[]', 400],
      ['no mcp-session-id', url('a'), json, listTools, 400],
      ['unknown mcp-session-id', url('a'), { ...json, 'mcp-session-id': 'not-a-connection' }, listTools, 404],
    ];
    for (const [what, target, headers, body, status] of cases) {
      // The trailing slash is the same route to Express, and not the exact path the direct handler takes.
      const direct = await answer(target, headers, body);
      expect({ what, status: direct.status }).toEqual({ what, status });
      expect({ what, ...(await answer(`${target}/`, headers, body)) }).toEqual({ what, ...direct });
    }
  });

  test('HTTP timeouts: unfinished headers, an unfinished body and an idle keep-alive socket are closed', async () => {
    const { daemon, path } = await setup({
      KANDEV_HTTP_HEADERS_TIMEOUT_MS: '300',
      KANDEV_HTTP_REQUEST_TIMEOUT_MS: '600',
      KANDEV_HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    const port = daemon.ready.mcpPort;
    const [headers, body, idle] = await Promise.all([
      closedByServer(port, INCOMPLETE_HEADERS(path('a'))),
      closedByServer(port, INCOMPLETE_BODY(path('a'), AUTH)),
      closedByServer(port, IDLE_AFTER_REQUEST('/healthz')),
    ]);
    expect(headers.received).toMatch(/^(HTTP\/1\.1 408|$)/);
    expect(body.received).toMatch(/^(HTTP\/1\.1 408|$)/);
    expect(idle.received).toMatch(/^HTTP\/1\.1 200/);
  });
});
