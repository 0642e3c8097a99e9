// The audit trail end to end (a real backend and agentctl, an MCP SDK client): a change made over REST
// records the token that made it (id and name, never the token) on its events; a change an agent makes
// through its MCP tools records its session; GET /api/audit lists them newest first, filters by actor,
// pages without repeating or skipping, and answers only an admin of every workspace.
import { BackendApi } from '../../helpers/backend-api';
import { cliJson, runCli } from '../../helpers/cli';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

interface AuditEntry {
  id: string;
  type: string;
  task_id: string | null;
  session_id: string | null;
  actor: { kind: 'token'; id: string; name: string } | { kind: 'session'; id: string };
  data: Record<string, unknown>;
}
interface AuditPage {
  entries: AuditEntry[];
  next_cursor: string | null;
}

async function audit(api: BackendApi, query = ''): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  let cursor: string | null = null;
  do {
    const path: string = `/api/audit?limit=2${query}${cursor === null ? '' : `&cursor=${cursor}`}`;
    const page = await api.request<AuditPage>('GET', path);
    expect(page.status).toBe(200);
    entries.push(...page.body.entries);
    cursor = page.body.next_cursor;
  } while (cursor !== null);
  return entries;
}

describe('the audit trail', () => {
  const cleanup = useCleanup();

  test('REST changes record their token, MCP tool changes their session; GET /api/audit lists them', async () => {
    const backend = await startBackend(cleanup);
    const admin = new BackendApi(backend.ready.url, backend.apiToken);
    const minted = await admin.create<{ id: string; token: string }>('/api/tokens', { name: 'ci', role: 'operator' });
    const ci = new BackendApi(backend.ready.url, minted.token);
    const workspaceId = await admin.workspace();

    const task = await ci.task(workspaceId, { title: 'filed by ci' });
    expect((await ci.request('PATCH', `/api/tasks/${task.id}`, { title: 'renamed by ci' })).status).toBe(200);
    const session = await ci.launch(task.id, { owns_task_title: true });
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    const retitled = await waitUntil(
      async () => {
        const result = (await mcp.client.callTool({
          name: 'set_task_title_kandev',
          arguments: { title: 'renamed by the agent' },
        })) as { isError?: boolean };
        return result.isError === true ? undefined : result;
      },
      { timeoutMs: 10_000, intervalMs: 50, logs: backend.logs, what: 'the backend to attach' },
    );
    expect(retitled.isError).toBeFalsy();

    const everything = await audit(admin);
    expect(new Set(everything.map((entry) => entry.id)).size).toBe(everything.length); // no repeats across pages
    const ids = everything.map((entry) => Number(entry.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a)); // newest first
    const byCi = await audit(admin, `&actor_id=${minted.id}`);
    expect(byCi.length).toBeGreaterThan(0);
    expect(byCi.every((entry) => entry.actor.kind === 'token' && entry.actor.name === 'ci')).toBe(true);
    expect(byCi.map((entry) => entry.type)).toEqual(expect.arrayContaining(['task.created', 'task.updated']));
    const byAgent = await audit(admin, '&actor_kind=session');
    // The agent's retitle records what the operator's PATCH records (task.updated), then its
    // title_change entry in the conversation, both as its session's doing (newest first).
    expect(byAgent).toEqual([
      expect.objectContaining({
        type: 'message.created',
        task_id: task.id,
        actor: { kind: 'session', id: session.session_id },
        data: { message: expect.objectContaining({ type: 'title_change', content: 'renamed by the agent' }) },
      }),
      expect.objectContaining({
        type: 'task.updated',
        task_id: task.id,
        actor: { kind: 'session', id: session.session_id },
        data: { task: expect.objectContaining({ id: task.id, title: 'renamed by the agent' }) },
      }),
    ]);
    // The workspace was made by the token in the file; no entry ever holds a token itself.
    expect(JSON.stringify(everything)).not.toContain(minted.token);
    expect(JSON.stringify(everything)).not.toContain(backend.apiToken);

    // The CLI reads the same trail; an operator token is told it lacks the right.
    const viaCli = await cliJson<AuditEntry[]>({ url: backend.ready.url, token: backend.apiToken }, [
      '--json',
      'audit',
      '--agents',
    ]);
    expect(viaCli.map((entry) => entry.id)).toEqual(byAgent.map((entry) => entry.id));
    const refused = await runCli({ url: backend.ready.url, token: minted.token }, ['audit']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/needs admin/);

    // Only an admin of every workspace reads the trail; a bad filter is refused.
    expect((await ci.request('GET', '/api/audit')).status).toBe(403);
    expect((await admin.request('GET', '/api/audit?actor_kind=robot')).status).toBe(400);
    expect((await admin.request('GET', '/api/audit?cursor=nope')).status).toBe(400);
  });
});
