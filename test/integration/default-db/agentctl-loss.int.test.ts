// A lost agentctl is noticed and repaired (ADR: agentctl loss and repair), with real processes: the
// local agentctl SIGKILLed under live sessions is restarted at once; MCP-only sessions are registered
// again at their desired revision (their URL and token work, their tools are the task's committed
// providers), sessions whose agent died with it end failed with reason agentctl_lost, and resume brings
// one back. Every wait ends on a state change (a barrier), never on elapsed time.
import { AgentRuntimeApi, waitForAgentReady } from '../../helpers/agent-runtime';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LiveApi, MR_PAIR, PR_PAIR, providersIn, startLiveBackend, whileStopped } from '../../helpers/live-updates';
import {
  isPidAlive,
  killPid,
  startAgentctl,
  startBackend,
  stopProcess,
  tempDir,
  TEST_CONTROL_TOKEN,
} from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

/** A stopped agentctl fails a push fast; the reconciler never retries within the test (the repair must). */
const ENV = { KANDEV_AGENTCTL_TIMEOUT_MS: '500', KANDEV_REFRESH_RETRY_BASE_MS: '3600000' };

interface AgentctlBody {
  running: boolean;
  reachable: boolean;
  pid: number | null;
  grpc_address: string | null;
  mcp_url: string | null;
}

describe('agentctl loss: local agentctl killed with live sessions', () => {
  const cleanup = useCleanup();

  test('kill -9: restarted at once; MCP-only sessions restored at the desired revision; agent sessions fail agentctl_lost; resume brings one back', async () => {
    const { backend, api, workspaceId } = await startLiveBackend(cleanup, ENV);
    cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 })); // stops the agents gracefully
    const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, backend.logs);
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const mcpOnly = await api.task(workspaceId, { title: 'mcp only', repository_ids: [github.id] });
    const first = await api.launch(mcpOnly.id);
    const second = await api.launch(mcpOnly.id);
    const withAgent = await api.task(workspaceId, {
      title: 'agent',
      agent_profile_id: await runtime.profile('runtime'),
    });
    const agentSession = await api.launch(withAgent.id);
    await waitForAgentReady(runtime, agentSession.session_id);
    const oldPid = backend.ready.agentctl.pid;

    // A source committed while agentctl cannot take it: the sessions' desired revision (2) is ahead of
    // what agentctl holds (1) when it dies.
    const batch = await whileStopped(oldPid, async () => {
      const added = await api.addSources(mcpOnly.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
      killPid(oldPid, 'SIGKILL');
      return added;
    });
    expect(batch.body.refresh.status).toBe('failed');

    // Barrier: the agent session ends, and the MCP-only ones are acknowledged at revision 2 again.
    const failed = await runtime.waitForState(agentSession.session_id, 'failed');
    expect(failed.last_error).toMatch(/^agentctl_lost/);
    for (const launched of [first, second]) {
      const repaired = await waitUntil(
        async () => {
          const body = await api.session(launched.session_id);
          return body.applied_revision === 2 ? body : undefined;
        },
        { timeoutMs: 20_000, logs: backend.logs, what: `session ${launched.session_id} restored` },
      );
      expect(repaired).toMatchObject({
        state: 'waiting_for_input',
        revision: 2,
        refresh_error: null,
        last_error: null,
      });
      expect(providersIn(repaired.tools ?? [])).toEqual(['github', 'gitlab']);
      // The same URL and token as at launch: the client reconnects and lists the committed providers.
      const mcp = await connectMcp(cleanup, launched.mcp_url, launched.mcp_token);
      expect(await mcp.toolNames()).toEqual(expect.arrayContaining([...PR_PAIR, ...MR_PAIR]));
    }
    const agentctl = (await api.request<AgentctlBody>('GET', '/api/agentctl')).body;
    expect(agentctl).toMatchObject({ running: true });
    expect(agentctl.pid).not.toBe(oldPid);
    expect(isPidAlive(agentctl.pid ?? 0)).toBe(true);
    expect(isPidAlive(oldPid)).toBe(false);

    const resumed = await runtime.resume(agentSession.session_id);
    expect(resumed.mcp_token).not.toBe(agentSession.mcp_token);
    await waitForAgentReady(runtime, agentSession.session_id);
    const prompt = await runtime.postPrompt(agentSession.session_id, 'after the loss');
    const drained = await runtime.waitForDrained(agentSession.session_id, 1);
    expect(drained.map((p) => [p.id, p.status])).toEqual([[prompt.queued_prompt_id, 'completed']]);
  });

  test('an adopted agentctl (a backend restarted on the same data dir) killed: noticed by the Attach end, restarted, sessions restored', async () => {
    const first = await startLiveBackend(cleanup, ENV);
    const github = await first.api.repository(first.workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await first.api.task(first.workspaceId, { title: 'm', repository_ids: [github.id] });
    const session = await first.api.launch(task.id);
    first.backend.child.kill('SIGKILL');
    await new Promise((resolve) => first.backend.child.once('exit', resolve));

    const second = await startBackend(cleanup, { ...ENV, KANDEV_DATA_DIR: first.backend.dataDir });
    cleanup.defer(() => stopProcess(second.child, { graceMs: 10_000 }));
    const adoptedPid = second.ready.agentctl.pid;
    expect(adoptedPid).toBe(first.backend.ready.agentctl.pid); // not its child: no exit event to see
    const api = new LiveApi(second.ready.url, second.apiToken);
    killPid(adoptedPid, 'SIGKILL');
    const restored = await waitUntil(
      async () => {
        const body = (await api.request<AgentctlBody>('GET', '/api/agentctl')).body;
        const view = await api.session(session.session_id);
        return body.reachable && body.pid !== adoptedPid && view.tools !== null ? view : undefined;
      },
      { timeoutMs: 20_000, logs: second.logs, what: 'a new agentctl holding the session' },
    );
    expect(restored).toMatchObject({ state: 'waiting_for_input', last_error: null });
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    expect(providersIn(await mcp.toolNames())).toEqual(['github']);
  });
});

describe('agentctl loss: the backend and its agentctl both killed', () => {
  const cleanup = useCleanup();

  test('the restarted backend starts a new agentctl and restores MCP-only sessions; an agent session fails', async () => {
    const first = await startLiveBackend(cleanup, ENV);
    const runtime = new AgentRuntimeApi(
      new BackendApi(first.backend.ready.url, first.backend.apiToken),
      cleanup,
      first.backend.logs,
    );
    const github = await first.api.repository(first.workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await first.api.task(first.workspaceId, { title: 'm', repository_ids: [github.id] });
    const mcpOnly = await first.api.launch(task.id);
    const withAgent = await first.api.task(first.workspaceId, {
      title: 'agent',
      agent_profile_id: await runtime.profile('runtime'),
    });
    const agentSession = await first.api.launch(withAgent.id);
    await waitForAgentReady(runtime, agentSession.session_id);
    first.backend.child.kill('SIGKILL');
    await new Promise((resolve) => first.backend.child.once('exit', resolve));
    killPid(first.backend.ready.agentctl.pid, 'SIGKILL');
    await waitUntil(() => !isPidAlive(first.backend.ready.agentctl.pid), {
      timeoutMs: 5_000,
      logs: first.backend.logs,
      what: 'the old agentctl gone',
    });

    const second = await startBackend(cleanup, { ...ENV, KANDEV_DATA_DIR: first.backend.dataDir });
    cleanup.defer(() => stopProcess(second.child, { graceMs: 10_000 }));
    expect(second.ready.agentctl.pid).not.toBe(first.backend.ready.agentctl.pid);
    const api = new LiveApi(second.ready.url, second.apiToken);
    const restored = await waitUntil(
      async () => {
        const view = await api.session(mcpOnly.session_id);
        return view.tools !== null ? view : undefined;
      },
      { timeoutMs: 20_000, logs: second.logs, what: 'the MCP-only session restored on the new agentctl' },
    );
    expect(restored).toMatchObject({ state: 'waiting_for_input', last_error: null, applied_revision: 1 });
    // Its token still works, on the new agentctl's MCP port.
    const url = `${second.ready.agentctl.mcpUrl}/sessions/${mcpOnly.session_id}/mcp`;
    const mcp = await connectMcp(cleanup, url, mcpOnly.mcp_token);
    expect(providersIn(await mcp.toolNames())).toEqual(['github']);
    expect(await api.session(agentSession.session_id)).toMatchObject({ state: 'failed' });
  });
});

describe('agentctl loss: health you can trust', () => {
  const cleanup = useCleanup();

  test('/readyz on both daemons: open (no token), status words only; ready once the agentctl answers', async () => {
    const { backend } = await startLiveBackend(cleanup);
    const readyz = await waitUntil(
      async () => {
        const response = await fetch(`${backend.ready.url}/readyz`);
        return response.status === 200 ? response.json() : undefined;
      },
      { timeoutMs: 10_000, logs: backend.logs, what: 'backend /readyz 200' },
    );
    expect(readyz).toEqual({ status: 'ready', checks: { database: 'ok', agentctl: { local: 'reachable' } } });
    const agentctl = await fetch(`${backend.ready.agentctl.mcpUrl}/readyz`);
    expect(agentctl.status).toBe(200);
    expect(await agentctl.json()).toEqual({ status: 'ready' });
  });

  test('remote agentctl goes away: GET /api/agentctl unreachable, /readyz 503; back on the same ports: sessions repaired', async () => {
    const first = await startAgentctl(cleanup);
    const ports = { grpc: String(first.ready.grpcPort), mcp: String(first.ready.mcpPort) };
    const tokenFile = join(tempDir(cleanup), 'agentctl.token');
    writeFileSync(tokenFile, `${TEST_CONTROL_TOKEN}\n`, { mode: 0o600 });
    const backend = await startBackend(cleanup, {
      ...ENV,
      KANDEV_EXECUTORS: 'remote',
      KANDEV_REMOTE_AGENTCTL_ADDRESS: `127.0.0.1:${ports.grpc}`,
      KANDEV_REMOTE_AGENTCTL_MCP_URL: `http://127.0.0.1:${ports.mcp}`,
      KANDEV_REMOTE_AGENTCTL_TOKEN_FILE: tokenFile,
      KANDEV_REMOTE_AGENTCTL_INSECURE: 'true', // plaintext on loopback
    });
    cleanup.defer(() => stopProcess(backend.child, { graceMs: 10_000 }));
    const logs = () => `${backend.logs()}\n--- agentctl ---\n${first.logs()}`;
    const api = new LiveApi(backend.ready.url, backend.apiToken);
    const runtime = new AgentRuntimeApi(new BackendApi(backend.ready.url, backend.apiToken), cleanup, logs);
    const workspaceId = await api.workspace();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const mcpOnly = await api.launch((await api.task(workspaceId, { title: 'm', repository_ids: [github.id] })).id);
    const profile = await runtime.profile('runtime');
    const withAgent = await api.launch((await api.task(workspaceId, { title: 'a', agent_profile_id: profile })).id);
    await waitForAgentReady(runtime, withAgent.session_id);
    const agentctl = async () =>
      (await api.request<AgentctlBody & { executors: unknown[] }>('GET', '/api/agentctl')).body;
    const readyz = async () => {
      const response = await fetch(`${backend.ready.url}/readyz`);
      return { status: response.status, body: await response.json() };
    };
    await waitUntil(async () => (await agentctl()).reachable, { timeoutMs: 10_000, logs, what: 'reachable' });
    expect(await agentctl()).toMatchObject({ running: true, reachable: true, pid: null });

    killPid(first.ready.pid, 'SIGKILL');
    const gone = await waitUntil(
      async () => {
        const body = await agentctl();
        return body.reachable ? undefined : body;
      },
      { timeoutMs: 10_000, logs, what: 'GET /api/agentctl unreachable' },
    );
    expect(gone).toMatchObject({
      running: false,
      reachable: false,
      executors: [{ name: 'remote', kind: 'remote', running: false, reachable: false }],
    });
    expect(await readyz()).toEqual({
      status: 503,
      body: { status: 'not_ready', checks: { database: 'ok', agentctl: { remote: 'unreachable' } } },
    });

    const second = await startAgentctl(cleanup, {
      KANDEV_AGENTCTL_GRPC_PORT: ports.grpc,
      KANDEV_AGENTCTL_MCP_PORT: ports.mcp,
    });
    const bothLogs = () => `${logs()}\n--- agentctl (second) ---\n${second.logs()}`;
    const failed = await runtime.waitForState(withAgent.session_id, 'failed');
    expect(failed.last_error).toMatch(/^agentctl_lost/);
    const restored = await waitUntil(
      async () => {
        const body = await api.session(mcpOnly.session_id);
        return body.tools !== null ? body : undefined;
      },
      { timeoutMs: 20_000, logs: bothLogs, what: 'the MCP-only session restored' },
    );
    expect(restored).toMatchObject({ state: 'waiting_for_input', applied_revision: 1, last_error: null });
    const mcp = await connectMcp(cleanup, mcpOnly.mcp_url, mcpOnly.mcp_token);
    expect(providersIn(await mcp.toolNames())).toEqual(['github']);
    await waitUntil(async () => (await readyz()).status === 200, {
      timeoutMs: 10_000,
      logs: bothLogs,
      what: '/readyz 200',
    });
    expect(await agentctl()).toMatchObject({ running: true, reachable: true });
  });
});
