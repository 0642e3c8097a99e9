// Live source updates when agentctl cannot take them: the batch stays committed, the session lists
// nothing beyond the committed set, and resume or the reconciler bring it to the derived set.
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, finalListChangedCount } from '../../helpers/mcp';
import {
  connectStreaming,
  expectListChangedCount,
  LiveApi,
  MR_PAIR,
  PR_PAIR,
  providersIn,
  startLiveBackend,
  whileStopped,
} from '../../helpers/live-updates';
import { killPid, startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

/** Short agentctl deadline, so a stopped agentctl fails a push fast. */
const FAST_DEADLINE = { KANDEV_AGENTCTL_TIMEOUT_MS: '500' };
/** Retries far beyond the test's assertions (capped at 30 s), so the reconciler cannot race them. */
const NO_EARLY_RETRY = { ...FAST_DEADLINE, KANDEV_REFRESH_RETRY_BASE_MS: '3600000' };
const QUICK_RETRY = { ...FAST_DEADLINE, KANDEV_REFRESH_RETRY_BASE_MS: '50' };

describe('live source updates: failures and repair', () => {
  const cleanup = useCleanup();

  async function githubSession(env: Record<string, string>) {
    const { backend, api, workspaceId } = await startLiveBackend(cleanup, env);
    const gh = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspaceId, { title: 't', repository_ids: [gh.id] });
    const session = await api.launch(task.id);
    const mcp = await connectStreaming(cleanup, session, backend.logs);
    return { backend, api, workspaceId, gh, task, session, mcp };
  }

  test('agentctl stopped during a batch: 2xx with refresh failed, sources committed, never more than committed; resume repairs', async () => {
    const { backend, api, task, session, mcp } = await githubSession(NO_EARLY_RETRY);
    const before = await mcp.toolNames();
    const batch = await whileStopped(backend.ready.agentctl.pid, () =>
      api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]),
    );
    expect(batch.status).toBe(201);
    expect(batch.body.refresh).toEqual({
      status: 'failed',
      sessions: [
        {
          session_id: session.session_id,
          status: 'failed',
          revision: 2,
          reason: expect.stringMatching(/Deadline exceeded/),
        },
      ],
    });
    expect((await api.getTask(task.id)).providers).toEqual(['github', 'gitlab']);

    // agentctl runs again: it may still hold the old set, or have taken the push that outlived its
    // deadline (pushes go without a probe first). Either way nothing beyond
    // the committed set, and the backend records the push as not acknowledged.
    const listed = await mcp.toolNames();
    expect([before, [...before, ...MR_PAIR].sort()]).toContainEqual([...listed].sort());
    const stale = await api.session(session.session_id);
    expect(stale).toMatchObject({ revision: 2, applied_revision: 1, state: 'waiting_for_input' });
    expect(stale.refresh_error).toMatch(/Deadline exceeded/);
    expect(stale.launch_config.providers).toEqual(['github', 'gitlab']);

    const resumed = await api.resume(session.session_id);
    expect(resumed.status).toBe(200);
    expect(resumed.body.mcp_token).not.toBe(session.mcp_token);
    expect(resumed.body.launch_config).toMatchObject({ revision: 3, providers: ['github', 'gitlab'] });
    await expect(mcp.client.listTools()).rejects.toThrow(); // the old token's connections were closed
    // Closing them ended the notification stream: one list_changed at most, only if the late push landed.
    expect(await finalListChangedCount(mcp, backend.logs)).toBe(listed.length === before.length ? 0 : 1);
    const fresh = await connectMcp(cleanup, resumed.body.mcp_url, resumed.body.mcp_token);
    const after = await fresh.toolNames();
    expect(after).toEqual(expect.arrayContaining([...PR_PAIR, ...MR_PAIR]));
    expect(await api.session(session.session_id)).toMatchObject({
      state: 'waiting_for_input', // MCP only: no agent, so idle once agentctl took the config
      revision: 3,
      applied_revision: 3,
      refresh_error: null,
      tools: after,
    });
  });

  test('the reconciler applies the derived set once agentctl answers again; the client gets list_changed', async () => {
    const { backend, api, task, session, mcp } = await githubSession(QUICK_RETRY);
    const batch = await whileStopped(backend.ready.agentctl.pid, () =>
      api.addSources(task.id, [{ remote_url: 'git@gitlab.com:acme/web.git' }]),
    );
    expect(batch.body.refresh.status).toBe('failed');

    await expectListChangedCount(mcp, 1, backend.logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['github', 'gitlab']);
    const repaired = await waitUntil(
      async () => {
        const body = await api.session(session.session_id);
        return body.applied_revision === body.revision ? body : undefined;
      },
      { timeoutMs: 10_000, logs: backend.logs, what: 'the reconciler to record the refresh' },
    );
    expect(repaired).toMatchObject({ revision: 2, refresh_error: null, state: 'waiting_for_input' });
    // The failed push and the repair: one change, one notification.
    expect((await api.stopSession(session.session_id)).status).toBe(200);
    expect(await finalListChangedCount(mcp, backend.logs)).toBe(1);
  });

  test('agentctl killed: restarted at once, the session restored on it; the next batch applies', async () => {
    const { backend, api, task, session } = await githubSession(QUICK_RETRY);
    killPid(backend.ready.agentctl.pid);
    // Barrier: the restarted agentctl holds the session again (the repair after it attached).
    await waitUntil(
      async () => {
        const body = await api.session(session.session_id);
        return body.tools !== null && (await api.request<{ pid: number }>('GET', '/api/agentctl')).body.pid;
      },
      { timeoutMs: 20_000, logs: backend.logs, what: 'the session restored on a new agentctl' },
    );
    expect((await api.request<{ pid: number }>('GET', '/api/agentctl')).body.pid).not.toBe(backend.ready.agentctl.pid);
    const batch = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
    expect(batch.body.refresh.sessions).toEqual([{ session_id: session.session_id, status: 'applied', revision: 2 }]);
    // The launch's URL and token still reach it.
    const fresh = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    expect(providersIn(await fresh.toolNames())).toEqual(['github', 'gitlab']);
    expect(await api.session(session.session_id)).toMatchObject({ state: 'waiting_for_input', last_error: null });
  });

  test('a backend restarted on the same data dir repairs sessions left behind (boot sweep)', async () => {
    const { backend, api, task, session, mcp } = await githubSession(NO_EARLY_RETRY);
    const batch = await whileStopped(backend.ready.agentctl.pid, async () => {
      const response = await api.addSources(task.id, [{ remote_url: 'https://gitlab.com/acme/web' }]);
      backend.child.kill('SIGKILL'); // the backend dies before any retry
      await new Promise((resolve) => backend.child.once('exit', resolve));
      return response;
    });
    expect(batch.body.refresh.status).toBe('failed');

    const second = await startBackend(cleanup, { ...NO_EARLY_RETRY, KANDEV_DATA_DIR: backend.dataDir });
    expect(second.ready.agentctl.pid).toBe(backend.ready.agentctl.pid); // adopted
    await expectListChangedCount(mcp, 1, second.logs);
    expect(providersIn(await mcp.toolNames())).toEqual(['github', 'gitlab']);
    const api2 = new LiveApi(second.ready.url, second.apiToken);
    await waitUntil(async () => (await api2.session(session.session_id)).applied_revision === 2, {
      timeoutMs: 5_000,
      logs: second.logs,
    });
    expect(await api2.session(session.session_id)).toMatchObject({ revision: 2, refresh_error: null });
    // The failed push sent nothing the sweep did not replace: one change, one notification in all.
    expect((await api2.stopSession(session.session_id)).status).toBe(200);
    expect(await finalListChangedCount(mcp, second.logs)).toBe(1);
  });
});
