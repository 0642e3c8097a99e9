// A lost agentctl is noticed and repaired (ADR: agentctl loss and repair), with real processes: the
// local agentctl SIGKILLed under live sessions is restarted at once; MCP-only sessions are registered
// again at their desired revision (their URL and token work, their tools are the task's committed
// providers), sessions whose agent died with it end failed with reason agentctl_lost, and resume brings
// one back. Every wait ends on a state change (a barrier), never on elapsed time.
import { AgentRuntimeApi, waitForAgentReady } from '../helpers/agent-runtime';
import { BackendApi } from '../helpers/backend-api';
import { useCleanup } from '../helpers/cleanup';
import { connectMcp } from '../helpers/mcp';
import { MR_PAIR, PR_PAIR, providersIn, startLiveBackend, whileStopped } from '../helpers/live-updates';
import { isPidAlive, killPid, stopProcess } from '../helpers/processes';
import { waitUntil } from '../helpers/wait';

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
});
