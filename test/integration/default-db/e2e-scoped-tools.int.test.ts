// The spine end to end with real processes: backend (REST + SQLite) -> local executor -> agentctl
// (gRPC) -> MCP over Streamable HTTP -> the official SDK client as the agent.
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, rawInitialize } from '../../helpers/mcp';
import { isPidAlive, startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';
import { KANBAN_CORE, MR_PAIR, PR_PAIR, sorted } from '../../helpers/tool-names';

describe('scoped MCP tools, end to end', () => {
  const cleanup = useCleanup();

  async function setup() {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace();
    return { backend, api, workspaceId };
  }

  test('normal task with a github and a gitlab repository: user question, PR and MR pairs, kanban core', async () => {
    const { api, workspaceId } = await setup();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api.git' });
    const gitlab = await api.repository(workspaceId, { remote_url: 'git@gitlab.com:acme/web.git' });
    expect([github.provider, gitlab.provider]).toEqual(['github', 'gitlab']);
    const task = await api.task(workspaceId, { title: 'normal', repository_ids: [gitlab.id, github.id] });

    const session = await api.launch(task.id);
    expect(session.launch_config).toMatchObject({ question_capability: 'user', providers: ['github', 'gitlab'] });

    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    const names = await mcp.toolNames();
    expect(names).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR, ...MR_PAIR]));
    expect(names).not.toContain('ask_parent_question_kandev');

    const reported = await api.request<{
      tools: string[];
      launch_config: unknown;
      agentctl: { launch_config: unknown };
    }>('GET', `/api/sessions/${session.session_id}`);
    expect(reported.status).toBe(200);
    expect(reported.body.tools).toEqual(names);
    // The local executor delivers the identical launch config: agentctl holds what the backend derived.
    expect(reported.body.launch_config).toEqual(session.launch_config);
    expect(reported.body.agentctl.launch_config).toEqual(session.launch_config);
  });

  test('autopilot child with only a gitlab repository: parent question and MR pair only', async () => {
    const { api, workspaceId } = await setup();
    const gitlab = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/group/web' });
    const parent = await api.task(workspaceId, { title: 'parent' });
    const child = await api.task(workspaceId, {
      title: 'child',
      parent_id: parent.id,
      autopilot: true,
      repository_ids: [gitlab.id],
    });

    const session = await api.launch(child.id);
    expect(session.launch_config).toMatchObject({ question_capability: 'parent', providers: ['gitlab'] });
    const names = await (await connectMcp(cleanup, session.mcp_url, session.mcp_token)).toolNames();
    expect(names).toEqual(sorted([...KANBAN_CORE, 'ask_parent_question_kandev', ...MR_PAIR]));
    expect(names).not.toContain('ask_user_question_kandev');
  });

  test('autopilot root with a local path and a bitbucket repository: no question tool, no provider tool', async () => {
    const { api, workspaceId } = await setup();
    const local = await api.repository(workspaceId, { local_path: '/srv/checkouts/tool' });
    const bitbucket = await api.repository(workspaceId, { remote_url: 'https://bitbucket.org/acme/lib.git' });
    expect([local.provider, bitbucket.provider]).toEqual([null, null]);
    const root = await api.task(workspaceId, {
      title: 'root',
      autopilot: true,
      repository_ids: [local.id, bitbucket.id],
    });

    const session = await api.launch(root.id);
    expect(session.launch_config).toMatchObject({ question_capability: 'none', providers: [] });
    expect(await (await connectMcp(cleanup, session.mcp_url, session.mcp_token)).toolNames()).toEqual(KANBAN_CORE);
  });

  test('explicit provider strings are normalised or dropped', async () => {
    const { api, workspaceId } = await setup();
    const cases: [Record<string, unknown>, string | null][] = [
      [{ remote_url: 'https://git.example.com/a/one', provider: '  GitLab ' }, 'gitlab'],
      [{ remote_url: 'https://git.example.com/a/two', provider: 'GITHUB' }, 'github'],
      [{ remote_url: 'https://github.com/a/three', provider: '' }, 'github'],
      [{ remote_url: 'https://github.com/a/four', provider: '   ' }, 'github'],
      [{ remote_url: 'https://git.example.com/a/five', provider: 'svn' }, null],
      [{ local_path: '/srv/six', provider: 'local' }, null],
    ];
    for (const [source, expected] of cases) {
      expect({ source, provider: (await api.repository(workspaceId, source)).provider }).toEqual({
        source,
        provider: expected,
      });
    }
  });

  test('with the backend stopped, tools/list on a live session still answers the same list', async () => {
    const { backend, api, workspaceId } = await setup();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspaceId, { title: 't', repository_ids: [github.id] });
    const session = await api.launch(task.id);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    const before = await mcp.toolNames();

    // Frozen: the backend cannot answer anything, so a list that waited on it would hang.
    process.kill(backend.child.pid!, 'SIGSTOP');
    try {
      expect(await mcp.toolNames()).toEqual(before);
    } finally {
      process.kill(backend.child.pid!, 'SIGCONT');
    }

    // Gone: the backend crashes; the agentctl it started keeps serving.
    backend.child.kill('SIGKILL');
    await new Promise((resolve) => backend.child.once('exit', resolve));
    expect(isPidAlive(backend.ready.agentctl.pid)).toBe(true);
    expect(await mcp.toolNames()).toEqual(before);
    const fresh = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    expect(await fresh.toolNames()).toEqual(before);
  });

  test("MCP tokens: missing or wrong -> 401, another session's token -> refused", async () => {
    const { api, workspaceId } = await setup();
    const a = await api.launch((await api.task(workspaceId, { title: 'a' })).id);
    const b = await api.launch((await api.task(workspaceId, { title: 'b' })).id);

    expect((await rawInitialize(a.mcp_url, {})).status).toBe(401);
    expect((await rawInitialize(a.mcp_url, { authorization: 'Bearer wrong-token' })).status).toBe(401);
    expect((await rawInitialize(b.mcp_url, { authorization: `Bearer ${a.mcp_token}` })).status).toBe(401);
    expect((await rawInitialize(a.mcp_url, { authorization: `Bearer ${a.mcp_token}` })).status).toBe(200);
  });

  test('a listed tool call reaches the backend over Attach; an unlisted one is refused by agentctl', async () => {
    const { backend, api, workspaceId } = await setup();
    const session = await api.launch((await api.task(workspaceId, { title: 'caller' })).id);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);

    // The backend attaches right after boot (asynchronously); until then calls fail fast.
    const reached = await waitUntil(
      async () => {
        const result = await mcp.client.callTool({ name: 'list_tasks_kandev', arguments: {} });
        return /no backend is attached/i.test(JSON.stringify(result.content)) ? undefined : result;
      },
      { timeoutMs: 10_000, intervalMs: 50, logs: backend.logs, what: 'the backend to attach' },
    );
    expect(reached.content).toEqual([expect.objectContaining({ type: 'text' })]);
    await expect(mcp.client.callTool({ name: 'get_task_pr_automation_kandev', arguments: {} })).rejects.toThrow(
      /unknown or unavailable tool/i,
    );
  });
});
