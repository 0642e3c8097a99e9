// Clients of the live-update benchmark: the backend's REST API and official MCP SDK clients with their
// GET notification stream open, recording when each list_changed arrives.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';

const cjs = createRequire(import.meta.url);
const { Client } = cjs('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = cjs('@modelcontextprotocol/sdk/client/streamableHttp.js');
const { ToolListChangedNotificationSchema } = cjs('@modelcontextprotocol/sdk/types.js');

const STREAM_TIMEOUT_MS = 5_000;
// The gitlab tools a session gains with a gitlab repository (and loses without one).
const MR_PAIR = ['get_task_mr_automation_kandev', 'update_task_mr_automation_kandev'];

// ---- REST -------------------------------------------------------------------------------------

export class Api {
  /** `token`: the operator API token (the ready line's apiTokenFile). */
  constructor(url, token) {
    this.url = url;
    this.token = token;
  }

  async request(method, path, body) {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        authorization: `Bearer ${this.token}`,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text.length > 0 ? JSON.parse(text) : null };
  }

  async create(path, body) {
    const response = await this.request('POST', path, body);
    if (response.status !== 201)
      throw new Error(`POST ${path} -> ${response.status}: ${JSON.stringify(response.body)}`);
    return response.body;
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

/**
 * The official SDK client for one session, as an agent connects: bearer token, Streamable HTTP, and its
 * GET notification stream open (resolved once agentctl accepted it; a list_changed sent before that is
 * lost). Records the arrival time of every list_changed.
 */
export async function connectClient(session, logs) {
  const arrivals = [];
  const waiters = [];
  let streamOpened;
  const streamOpen = new Promise((resolve) => (streamOpened = resolve));
  const client = new Client({ name: 'kandev-bench', version: '0.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    arrivals.push(performance.now());
    for (const waiter of waiters.filter((w) => arrivals.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(arrivals[waiter.count - 1]);
    }
  });
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
    count: () => arrivals.length,
    /** Arrival time of the n-th notification (1-based), once it arrived. */
    nth(count) {
      if (arrivals.length >= count) return Promise.resolve(arrivals[count - 1]);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    async hasGitlabTools() {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      const present = MR_PAIR.filter((name) => names.includes(name)).length;
      if (present !== 0 && present !== MR_PAIR.length) throw new Error(`half of the MR pair listed: ${names}`);
      return present > 0;
    },
    async close() {
      try {
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
  };
}
