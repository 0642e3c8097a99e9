// Discovery is not a boundary, and a failed refresh never undoes a batch: a source removal whose live
// refresh failed (here: agentctl refuses it) leaves agentctl listing the old (larger) set until
// repaired, yet the backend refuses every call to the removed provider's tools, because it checks the
// committed sources at call time, never what agentctl lists.
import { join } from 'node:path';
import { AGENTCTL_STATE_FILE, AgentctlClient, readAgentctlState } from '@kandev/backend/testing';
import { BackendApi } from '../../helpers/backend-api';
import { githubForBackend } from '../../helpers/github-server';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { startBackend } from '../../helpers/processes';
import { PR_PAIR } from '../../helpers/tool-names';

interface PrLink {
  number: number;
  automation: Record<string, boolean>;
}

describe('discovery is not a security boundary', () => {
  const cleanup = useCleanup();

  test('PR tools still listed after a failed removal refresh are refused by the backend and change nothing', async () => {
    const { env: githubEnv } = await githubForBackend(cleanup);
    const backend = await startBackend(cleanup, {
      ...githubEnv,
      KANDEV_REFRESH_RETRY_BASE_MS: '600000', // keep the reconciler out of the way: the window stays open
    });
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspaceId, { title: 'pr work', repository_ids: [github.id] });
    expect(
      (await api.request('PUT', `/api/workspaces/${workspaceId}/credentials/github`, { token: 'ghp_test_token' }))
        .status,
    ).toBe(200);
    await api.create(`/api/tasks/${task.id}/prs`, { repository_id: github.id, number: 7 });
    const session = await api.launch(task.id);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);

    // While attached, the PR tools work.
    const allowed = await mcp.client.callTool({ name: 'get_task_pr_automation_kandev', arguments: {} });
    expect(allowed.isError).not.toBe(true);

    // agentctl already holds the removal's revision with the old set (a push the backend never saw
    // answered): the removal's push conflicts, so the refresh fails and agentctl keeps the larger set.
    const recorded = readAgentctlState(join(backend.dataDir, AGENTCTL_STATE_FILE));
    if (recorded === undefined) throw new Error('no agentctl state recorded');
    const direct = new AgentctlClient(recorded, 5_000);
    cleanup.defer(() => direct.close());
    const [ahead] = await direct.updateProvidersBatch([
      { sessionId: session.session_id, providers: ['github'], revision: 2 },
    ]);
    expect(ahead).toMatchObject({ ok: true, result: { outcome: 'applied', toolsChanged: false } });
    const removal = await api.request<{ refresh: { status: string } }>(
      'DELETE',
      `/api/tasks/${task.id}/workspace-sources/${github.id}?wait=applied`,
    );
    expect(removal.status).toBe(200);
    expect(removal.body.refresh.status).toBe('failed');

    // agentctl still lists the PR pair (the old, unacknowledged set) ...
    expect(await mcp.toolNames()).toEqual(expect.arrayContaining(PR_PAIR));
    // ... but the backend refuses both tools, and nothing changes.
    const read = await mcp.client.callTool({ name: 'get_task_pr_automation_kandev', arguments: {} });
    expect(read.isError).toBe(true);
    expect(JSON.stringify(read.content)).toMatch(/permission_denied/);
    const write = await mcp.client.callTool({
      name: 'update_task_pr_automation_kandev',
      arguments: { repository_id: github.id, pr_number: 7, auto_merge_enabled: true },
    });
    expect(write.isError).toBe(true);
    expect(JSON.stringify(write.content)).toMatch(/permission_denied/);
    const links = await api.request<{ prs: PrLink[] }>('GET', `/api/tasks/${task.id}/prs`);
    expect(links.body.prs).toHaveLength(1);
    expect(Object.values(links.body.prs[0]!.automation).every((enabled) => !enabled)).toBe(true);

    // Repair: resume rebuilds from the database; the PR pair is gone from discovery too.
    const resumed = await api.request<{ mcp_url: string; mcp_token: string }>(
      'POST',
      `/api/sessions/${session.session_id}/resume`,
      {},
    );
    expect(resumed.status).toBe(200);
    const repaired = await connectMcp(cleanup, resumed.body.mcp_url, resumed.body.mcp_token);
    const names = await repaired.toolNames();
    for (const tool of PR_PAIR) expect(names).not.toContain(tool);
  });
});
