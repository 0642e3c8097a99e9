// The tools-list benchmark's client side: SDK clients for timed calls, raw idle MCP connections (many
// per process), gRPC session creation and the heap probe of a daemon started with heap-probe.cjs.
import { Buffer } from 'node:buffer';
import { once } from 'node:events';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';

const cjs = createRequire(import.meta.url);
const grpc = cjs('@grpc/grpc-js');
const { controlTokenMetadata, launchConfigToWire, loadAgentctlProto } = cjs('@kandev/protocol');
const { Client } = cjs('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = cjs('@modelcontextprotocol/sdk/client/streamableHttp.js');

/** The official SDK client on one connection (initialize, GET stream), for timed tools/list calls. */
export async function connectMcp(url, headers) {
  const client = new Client({ name: 'kandev-bench', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    // The transport passes one shared AbortSignal to every POST; undici (Node's fetch) removes its abort
    // listener only when the request is garbage collected, so back-to-back calls pile up past undici's
    // limit of 1500 and each further call prints a MaxListenersExceededWarning: that would time the
    // client's stderr, not the server. Only the long-lived GET stream keeps the signal (close ends it).
    fetch: (input, init) => fetch(input, init?.method === 'POST' ? { ...init, signal: undefined } : init),
  });
  await client.connect(transport);
  return {
    listTools: () => client.listTools(),
    async close() {
      try {
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
  };
}

/** Runs `task` over `items` with at most `limit` in flight; resolves results in item order. */
export async function inBatches(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** gRPC CreateSession for each launch config, `limit` at a time, on one channel. */
export async function createSessions(grpcPort, controlToken, configs, limit = 32) {
  const AgentCtl = loadAgentctlProto().kandev.agentctl.v1.AgentCtl;
  const client = new AgentCtl(`127.0.0.1:${grpcPort}`, grpc.credentials.createInsecure());
  try {
    return await inBatches(
      configs,
      limit,
      (config) =>
        new Promise((resolve, reject) => {
          client.CreateSession(
            launchConfigToWire(config),
            controlTokenMetadata(controlToken),
            { deadline: Date.now() + 10_000 },
            (err, state) => (err ? reject(err) : resolve(state)),
          );
        }),
    );
  } finally {
    client.close();
  }
}

// POSTs reuse a few keep-alive sockets; every GET stream holds a socket of its own for its lifetime.
const postAgent = new Agent({ keepAlive: true, maxSockets: 32 });
const streamAgent = new Agent({ keepAlive: false, maxSockets: Infinity });

export function send(url, { method, headers, body, agent = postAgent }) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, resolve);
    req.once('error', reject);
    req.end(body);
  });
}

export async function readAll(res) {
  const chunks = [];
  for await (const chunk of res) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const PROTOCOL_VERSION = '2025-06-18';

/**
 * One idle MCP connection as a client holds it: initialize, notifications/initialized, then the GET
 * SSE stream left open. Plain node:http, so a thousand of them cost the client little.
 */
export async function openIdleConnection(url, headers, { onData } = {}) {
  const json = { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'kandev-bench-idle', version: '0' },
    },
  };
  const init = await send(url, { method: 'POST', headers: json, body: JSON.stringify(initialize), agent: postAgent });
  const initBody = await readAll(init);
  const sessionId = init.headers['mcp-session-id'];
  if (init.statusCode !== 200 || typeof sessionId !== 'string' || !initBody.includes('"protocolVersion"')) {
    throw new Error(`initialize answered ${init.statusCode}: ${initBody.slice(0, 200)}`);
  }
  const follow = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
  const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const initialized = await send(url, {
    method: 'POST',
    headers: { ...json, ...follow },
    body: notification,
    agent: postAgent,
  });
  await readAll(initialized);
  if (initialized.statusCode !== 202) throw new Error(`notifications/initialized answered ${initialized.statusCode}`);
  const stream = await send(url, {
    method: 'GET',
    headers: { ...follow, accept: 'text/event-stream' },
    agent: streamAgent,
  });
  if (stream.statusCode !== 200) throw new Error(`GET stream answered ${stream.statusCode}: ${await readAll(stream)}`);
  stream.on('data', onData ?? (() => {}));
  // A reset stream must not end the run as an uncaught error: the 'close' that follows reports the drop.
  stream.on('error', () => {});
  let closing = false;
  return {
    /** The headers a later request on this MCP session carries. */
    headers: { ...json, ...follow },
    /** The server ended the stream (an idle connection must stay open for the whole run). */
    onDropped: (listener) => stream.once('close', () => closing || listener()),
    close() {
      closing = true;
      stream.destroy();
    },
  };
}

/** Heap used after a forced GC in a daemon started with `--expose-gc -r heap-probe.cjs` and an IPC channel. */
export async function readHeap(child) {
  return (await readMemory(child)).heapUsed;
}

/** Heap used and resident set size (bytes), both after a forced GC, as readHeap. */
export async function readMemory(child) {
  const answer = once(child, 'message');
  child.send({ type: 'heap' });
  const [message] = await answer;
  if (message?.type !== 'heap') throw new Error('unexpected heap probe answer');
  return { heapUsed: message.heapUsed, rss: message.rss };
}
