// Clients of the live-update benchmark: the backend's REST API and official MCP SDK clients with their
// GET notification stream open, recording when each list_changed arrives.
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { openIdleConnection, readAll, send } from './tools-list-clients.mjs';

const cjs = createRequire(import.meta.url);
const { Client } = cjs('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = cjs('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ToolListChangedNotificationSchema } = cjs('@modelcontextprotocol/sdk/types.js');

const STREAM_TIMEOUT_MS = 5_000;
// The gitlab tools a session gains with a gitlab repository (and loses without one).
const MR_PAIR = ['get_task_mr_automation_kandev', 'update_task_mr_automation_kandev'];

// ---- REST -------------------------------------------------------------------------------------

const restAgent = new Agent({ keepAlive: true, maxSockets: 4 });

export class Api {
  /** `token`: the operator API token (the ready line's apiTokenFile). */
  constructor(url, token) {
    this.url = url;
    this.token = token;
  }

  /** Plain node:http on one keep-alive agent: the client's own cost stays far below what is measured. */
  async request(method, path, body) {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers = {
      authorization: `Bearer ${this.token}`,
      ...(payload === undefined
        ? {}
        : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
    };
    const response = await send(`${this.url}${path}`, { method, headers, body: payload, agent: restAgent });
    const text = await readAll(response);
    return { status: response.statusCode, body: text.length > 0 ? JSON.parse(text) : null };
  }

  async create(path, body) {
    const response = await this.request('POST', path, body);
    if (response.status !== 201)
      throw new Error(`POST ${path} -> ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
  }

  /** GET /healthz: what any request to the backend costs (no auth, no database). */
  async healthz() {
    const response = await send(`${this.url}/healthz`, { method: 'GET', headers: {}, agent: restAgent });
    await readAll(response);
    if (response.statusCode !== 200) throw new Error(`GET /healthz -> ${response.statusCode}`);
  }

  /** A github-only task of the workspace. */
  async githubTask(workspaceId, repositoryId, title) {
    return (await this.create('/api/tasks', { workspace_id: workspaceId, title, repository_ids: [repositoryId] })).id;
  }

  addSources(taskId, sources) {
    return this.request('POST', `/api/tasks/${taskId}/workspace-sources`, { sources });
  }

  removeSource(taskId, repositoryId) {
    return this.request('DELETE', `/api/tasks/${taskId}/workspace-sources/${repositoryId}`);
  }
}

/** Fails unless a change answered as expected: its status, and one refresh status for every live session. */
export function expectChange(what, response, status, refresh, sessions) {
  const problems = [];
  if (response.status !== status) problems.push(`status ${response.status}`);
  if (response.body?.refresh?.status !== refresh) problems.push(`refresh ${response.body?.refresh?.status}`);
  const refreshed = response.body?.refresh?.sessions ?? [];
  if (refreshed.length !== sessions) problems.push(`${refreshed.length} sessions in the refresh`);
  const others = refreshed.filter((session) => session.status !== refresh).length;
  if (others > 0) problems.push(`${others} sessions not ${refresh}`);
  if (problems.length > 0) {
    throw new Error(
      `${what}: ${problems.join(', ')}; expected ${status} with refresh ${refresh} for ${sessions} sessions:\n` +
        JSON.stringify(response.body).slice(0, 2000),
    );
  }
}

// ---- MCP clients ------------------------------------------------------------------------------

/** Resolves `promise`, or rejects with `message` (and the daemons' logs) after `ms`. */
export async function within(promise, ms, message, logs) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${message} within ${ms} ms\n${logs()}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** When each list_changed arrived; `nth` resolves once the n-th (1-based) did. */
class Arrivals {
  times = [];
  waiters = [];

  record(at) {
    this.times.push(at);
    for (const waiter of this.waiters.filter((w) => this.times.length >= w.count)) {
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(this.times[waiter.count - 1]);
    }
  }

  count() {
    return this.times.length;
  }

  nth(count) {
    if (this.times.length >= count) return Promise.resolve(this.times[count - 1]);
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

/** Whether a tool list holds the MR pair (all of it or none: half of it is a bug). */
function listsMrPair(names) {
  const present = MR_PAIR.filter((name) => names.includes(name)).length;
  if (present !== 0 && present !== MR_PAIR.length) throw new Error(`half of the MR pair listed: ${names}`);
  return present > 0;
}

/**
 * The official SDK client for one session, as an agent connects: bearer token, Streamable HTTP, and its
 * GET notification stream open (resolved once agentctl accepted it; a list_changed sent before that is
 * lost). Records the arrival time of every list_changed.
 */
export async function connectClient(session, logs) {
  const arrivals = new Arrivals();
  let streamOpened;
  const streamOpen = new Promise((resolve) => (streamOpened = resolve));
  const client = new Client({ name: 'kandev-bench', version: '0.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => arrivals.record(performance.now()));
  const transport = new StreamableHTTPClientTransport(new URL(session.mcp_url), {
    requestInit: { headers: { Authorization: `Bearer ${session.mcp_token}` } },
    // As in tools-list.mjs: POSTs drop the transport's shared AbortSignal (undici would keep one abort
    // listener per request on it until GC and warn past 1500); the GET stream keeps it (close ends it).
    fetch: async (input, init) => {
      const isGet = (init?.method ?? 'GET') === 'GET';
      const response = await fetch(input, isGet ? init : { ...init, signal: undefined });
      if (isGet && response.ok) streamOpened();
      return response;
    },
  });
  await client.connect(transport);
  await within(streamOpen, STREAM_TIMEOUT_MS, `session ${session.session_id}: no notification stream`, logs);
  return {
    /** Notifications received so far. */
    count: () => arrivals.count(),
    /** Arrival time of the n-th notification (1-based), once it arrived. */
    nth: (count) => arrivals.nth(count),
    hasGitlabTools: async () => listsMrPair((await client.listTools()).tools.map((tool) => tool.name)),
    async close() {
      try {
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
  };
}

const LIST_CHANGED = 'notifications/tools/list_changed';

/**
 * A lean client for the fan-out: plain node:http, initialize + the GET notification stream, recording
 * when each list_changed arrives (the bytes on the wire, before any client library parses them), and
 * tools/list as a raw POST. A thousand SDK clients in one process would time the client's own parsing.
 */
export async function connectRawClient(session) {
  const arrivals = new Arrivals();
  let tail = '';
  const connection = await openIdleConnection(
    session.mcp_url,
    { authorization: `Bearer ${session.mcp_token}` },
    {
      onData(chunk) {
        const at = performance.now();
        const text = tail + chunk.toString('utf8');
        const parts = text.split(LIST_CHANGED);
        tail = parts.pop().slice(-LIST_CHANGED.length);
        for (let i = 0; i < parts.length; i++) arrivals.record(at);
      },
    },
  );
  let nextId = 1;
  return {
    count: () => arrivals.count(),
    nth: (count) => arrivals.nth(count),
    async hasGitlabTools() {
      nextId += 1;
      const body = JSON.stringify({ jsonrpc: '2.0', id: nextId, method: 'tools/list' });
      const response = await send(session.mcp_url, { method: 'POST', headers: connection.headers, body });
      const text = await readAll(response);
      const json = response.headers['content-type']?.startsWith('text/event-stream')
        ? text
            .split('\n')
            .find((line) => line.startsWith('data: '))
            ?.slice(6)
        : text;
      const names = JSON.parse(json ?? '{}').result?.tools?.map((tool) => tool.name);
      if (!Array.isArray(names)) throw new Error(`tools/list answered ${response.statusCode}: ${text.slice(0, 200)}`);
      return listsMrPair(names);
    },
    close() {
      connection.close();
      return Promise.resolve();
    },
  };
}
