// A few task tools end to end: MCP SDK client -> agentctl -> Attach -> the backend's handlers -> the
// database, observed through REST. The caller is the session's task whatever the arguments say.
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp, type McpConnection } from '../../helpers/mcp';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

const text = (result: ToolResult) => result.content.map((c) => c.text).join('\n');

async function call(mcp: McpConnection, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await mcp.client.callTool({ name, arguments: args })) as ToolResult;
}

describe('task tools through backend + agentctl + MCP client', () => {
  const cleanup = useCleanup();

  test('create a subtask, message it, retitle yourself, stop it; a forged target is refused', async () => {
    const backend = await startBackend(cleanup);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const parent = await api.task(await api.workspace(), { title: 'provisional', autopilot: true });
    const session = await api.launch(parent.id, { owns_task_title: true });
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    await waitUntil(async () => !/No backend is attached/.test(text(await call(mcp, 'get_task_kandev'))), {
      timeoutMs: 10_000,
      intervalMs: 50,
      logs: backend.logs,
      what: 'the backend to attach',
    });

    const created = await call(mcp, 'create_task_kandev', { title: 'Child', parent_id: 'self', prompt: 'Do X.' });
    expect(created.isError).toBeFalsy();
    const child = created.structuredContent?.task as { id: string };
    expect(created.structuredContent?.task).toMatchObject({ parent_id: parent.id, autopilot: false });
    expect((await api.request('GET', `/api/tasks/${child.id}`)).body).toMatchObject({ parent_id: parent.id });

    const childSession = await api.launch(child.id);
    const sent = await call(mcp, 'message_task_kandev', { task_id: child.id, prompt: 'Use the v2 API.' });
    expect(sent.structuredContent).toMatchObject({ task_id: child.id, session_id: childSession.session_id });
    const messages = await api.request<{ messages: { content: string; author: string }[] }>(
      'GET',
      `/api/tasks/${child.id}/messages`,
    );
    expect(messages.body.messages.map((m) => [m.author, m.content])).toEqual([
      [`task:${parent.id}`, 'Do X.'],
      [`task:${parent.id}`, 'Use the v2 API.'],
    ]);

    expect((await call(mcp, 'set_task_title_kandev', { title: 'Build the importer' })).isError).toBeFalsy();
    expect((await api.request('GET', `/api/tasks/${parent.id}`)).body).toMatchObject({ title: 'Build the importer' });

    const forged = await call(mcp, 'update_task_kandev', { task_id: child.id, title: 'hijacked' });
    expect(forged.isError).toBe(true);
    expect(text(forged)).toMatch(/permission_denied/);

    const stopped = await call(mcp, 'stop_task_kandev', { task_id: child.id, reason: 'enough' });
    expect(stopped.structuredContent).toMatchObject({
      stopped_sessions: [{ session_id: childSession.session_id, runtime: 'stopped' }],
    });
    const view = await api.request<{ state: string; tools: string[] | null }>(
      'GET',
      `/api/sessions/${childSession.session_id}`,
    );
    expect(view.body).toMatchObject({ state: 'cancelled', tools: null }); // agentctl no longer holds it
  });
});
