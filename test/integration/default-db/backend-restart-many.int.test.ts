// Hundreds of live MCP-only sessions (several of the backend's ListSessions pages) come through backend
// restarts whole. After a crash the restarted backend adopts the agentctl that kept serving them; after
// a graceful stop (which stops agentctl too) the next backend's new agentctl gets every one of them back. Each time, every session is reconciled
// exactly once: the backend reports each one live, agentctl lists each one exactly once (asked a page at
// a time, as the backend asks), and nothing else is there. The default database only, to keep the
// suite's time down: the same holds on PostgreSQL, where a backend restarted on its data dir keeps its
// home and adopts its local agentctl's sessions (docs/replicas.md), and the smaller restart tests of
// any-db cover it there.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentCtlClient, WireSessionStateOutput } from '@kandev/protocol';
import { agentctlClient, unary } from '../../helpers/agentctl-grpc';
import { BackendApi, type LaunchedSession } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { startBackend, stopProcess } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

const SESSIONS = 600;
const LAUNCH_CONCURRENCY = 8;
const PAGE_SIZE = 250;

interface SessionPage {
  sessions: WireSessionStateOutput[];
  more: boolean;
}

/** Every session id agentctl holds, page by page (ids ascending, each page after the last one). */
async function heldByAgentctl(client: AgentCtlClient, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let after = '', more = true; more; after = ids[ids.length - 1] ?? '') {
    const request = { page_size: PAGE_SIZE, after_session_id: after };
    const page = await unary<typeof request, SessionPage>(client, client.ListSessions, request, token);
    expect(page.sessions.length).toBeLessThanOrEqual(PAGE_SIZE);
    ids.push(...page.sessions.map((session) => session.config?.session_id ?? ''));
    more = page.more;
  }
  return ids;
}

/** The task's sessions as the backend reports them: id and state, every page. */
async function reportedByBackend(api: BackendApi, taskId: string): Promise<Map<string, string>> {
  const states = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const query: string = `task_id=${taskId}&limit=200${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = await api.request<{ sessions: { id: string; state: string }[]; next_cursor: string | null }>(
      'GET',
      `/api/sessions?${query}`,
    );
    expect(page.status).toBe(200);
    for (const session of page.body.sessions) {
      expect(states.has(session.id)).toBe(false);
      states.set(session.id, session.state);
    }
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return states;
}

async function launchMany(api: BackendApi, taskId: string): Promise<LaunchedSession[]> {
  const sessions: LaunchedSession[] = [];
  let started = 0;
  const worker = async (): Promise<void> => {
    while (started < SESSIONS) {
      started += 1;
      sessions.push(await api.launch(taskId));
    }
  };
  await Promise.all(Array.from({ length: LAUNCH_CONCURRENCY }, worker));
  return sessions;
}

describe('backend restart with many live sessions', () => {
  const cleanup = useCleanup();

  test('after a crash and after a graceful stop, every session is reconciled exactly once', async () => {
    const first = await startBackend(cleanup);
    const api = new BackendApi(first.ready.url, first.apiToken);
    const task = await api.task(await api.workspace(), { title: 'many sessions' });
    const launched = await launchMany(api, task.id);
    const expected = launched.map((session) => session.session_id).sort();
    expect(new Set(expected).size).toBe(SESSIONS);
    const mcp = await connectMcp(cleanup, launched[SESSIONS - 1]!.mcp_url, launched[SESSIONS - 1]!.mcp_token);
    const tools = await mcp.toolNames();

    /** The backend reports exactly the launched sessions, each live and idle; agentctl holds each once. */
    const expectReconciled = async (backend: typeof first) => {
      const reported = await reportedByBackend(new BackendApi(backend.ready.url, backend.apiToken), task.id);
      expect([...reported.keys()].sort()).toEqual(expected);
      expect(new Set(reported.values())).toEqual(new Set(['waiting_for_input']));
      const state = JSON.parse(readFileSync(join(backend.dataDir, 'agentctl.json'), 'utf8')) as {
        grpcAddress: string;
        controlToken: string;
      };
      const client = agentctlClient(cleanup, Number(state.grpcAddress.split(':').pop()));
      return heldByAgentctl(client, state.controlToken);
    };

    // Crash: the agentctl keeps serving and is adopted; the boot reconcile finds every session held.
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir });
    expect(second.ready.agentctl.pid).toBe(first.ready.agentctl.pid);
    expect(await expectReconciled(second)).toEqual(expected);
    expect(await mcp.toolNames()).toEqual(tools);

    // Graceful stop: agentctl stops with the backend; the next one gets every session back (the repair
    // after boot restores them), and none of them failed meanwhile.
    expect(await stopProcess(second.child, { graceMs: 30_000 })).toEqual({ code: 0, signal: null });
    const third = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir });
    expect(third.ready.agentctl.pid).not.toBe(first.ready.agentctl.pid);
    await waitUntil(async () => (await expectReconciled(third)).length === SESSIONS, {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: `agentctl to hold all ${SESSIONS} sessions again`,
    });
    expect(await expectReconciled(third)).toEqual(expected);
  }, 300_000);
});
