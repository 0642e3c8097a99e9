// A PR automation tool end to end: MCP SDK client -> agentctl -> Attach -> the backend's handler -> the
// database, observed through REST. Credentials are checked per call, and the token never comes back.
import { BackendApi } from '../../helpers/backend-api';
import { githubForBackend } from '../../helpers/github-server';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, type McpConnection } from '../../helpers/mcp';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

const TOKEN = 'ghp_e2e-secret-token-0123456789abcdef';
const text = (result: ToolResult) => result.content.map((c) => c.text).join('\n');

async function call(mcp: McpConnection, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

describe('PR automation through backend + agentctl + MCP client', () => {
  const cleanup = useCleanup();

  test('refused without credentials; then read and change one PR, seen through REST', async () => {
    const { env: githubEnv } = await githubForBackend(cleanup);
    const backend = await startBackend(cleanup, githubEnv);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspace = await api.workspace();
    const repo = await api.repository(workspace, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspace, { title: 't', repository_ids: [repo.id] });
    await api.create(`/api/tasks/${task.id}/prs`, { repository_id: repo.id, number: 5 });
    await api.create(`/api/tasks/${task.id}/prs`, { repository_id: repo.id, number: 6 });
    const session = await api.launch(task.id);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    expect(await mcp.toolNames()).toEqual(
      expect.arrayContaining(['get_task_pr_automation_kandev', 'update_task_pr_automation_kandev']),
    );
    await waitUntil(
      async () => !/No backend is attached/.test(text(await call(mcp, 'get_task_pr_automation_kandev'))),
      {
        timeoutMs: 10_000,
        intervalMs: 50,
        logs: backend.logs,
        what: 'the backend to attach',
      },
    );

    const refused = await call(mcp, 'update_task_pr_automation_kandev', { auto_fix_enabled: true });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/No GitHub credentials are configured for this workspace/);

    await api.request('PUT', `/api/workspaces/${workspace}/credentials/github`, { token: TOKEN });
    const listed = await call(mcp, 'get_task_pr_automation_kandev');
    expect(listed.isError).toBeFalsy();
    expect((listed.structuredContent?.prs as { pr_number: number }[]).map((pr) => pr.pr_number)).toEqual([5, 6]);

    const updated = await call(mcp, 'update_task_pr_automation_kandev', {
      repository_id: repo.id,
      pr_number: 6,
      auto_merge_enabled: true,
    });
    expect(updated.isError).toBeFalsy();
    expect(updated.structuredContent).toEqual({
      prs: [expect.objectContaining({ repository_id: repo.id, pr_number: 6, auto_merge_enabled: true })],
    });
    const prs = await api.request<{ prs: { number: number; automation: { auto_merge_enabled: boolean } }[] }>(
      'GET',
      `/api/tasks/${task.id}/prs`,
    );
    expect(prs.body.prs.map((pr) => [pr.number, pr.automation.auto_merge_enabled])).toEqual([
      [5, false],
      [6, true],
    ]);

    // A partial identity is a schema mismatch: agentctl rejects it as a protocol error before forwarding.
    await expect(
      call(mcp, 'update_task_pr_automation_kandev', { pr_number: 6, auto_fix_enabled: true }),
    ).rejects.toThrow(/pass repository_id and pr_number together/);
    for (const result of [refused, listed, updated]) expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(backend.logs()).not.toContain(TOKEN);
  });
});
