// Session launch through the real backend, its local executor and the real agentctl: the launch
// config (question capability, providers), the MCP endpoint, tools reported back, failure paths.
import { sha256Hex } from '@kandev/protocol';
import { type ApiResponse, BackendApi, type LaunchedSession } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { jsonColumnText, openTestDatabase } from '@kandev/backend/testing';
import { connectMcp } from '../../helpers/mcp';
import { isPidAlive, killPid, startBackend } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

type Json = Record<string, unknown>;
interface SessionBody {
  id: string;
  task_id: string;
  state: string;
  executor: string;
  revision: number;
  launch_config: Json;
  mcp_url: string | null;
  tools: string[] | null;
  connection_count: number | null;
  last_error: string | null;
  agentctl: { reachable: boolean; error?: string; launch_config: unknown };
}
interface AgentctlBody {
  running: boolean;
  reachable: boolean;
  pid: number | null;
  grpc_address: string | null;
  mcp_url: string | null;
}

const USER_Q = 'ask_user_question_kandev';
const PARENT_Q = 'ask_parent_question_kandev';
const PR_TOOL = 'get_task_pr_automation_kandev';
const MR_TOOL = 'get_task_mr_automation_kandev';

describe('backend sessions', () => {
  const cleanup = useCleanup();

  async function setup(env: Record<string, string> = {}) {
    const backend = await startBackend(cleanup, env);
    const api = new BackendApi(backend.ready.url, backend.apiToken);
    const workspaceId = await api.workspace();
    const getSession = async (id: string) => {
      const response = await api.request<SessionBody>('GET', `/api/sessions/${id}`);
      expect(response.status).toBe(200);
      return response.body;
    };
    return { backend, api, workspaceId, getSession };
  }

  test('normal task: user question, both providers, MCP URL and token work, tools reported from agentctl', async () => {
    const { backend, api, workspaceId, getSession } = await setup();
    const gl = await api.repository(workspaceId, { remote_url: 'git@gitlab.com:acme/web.git' });
    const gh = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const task = await api.task(workspaceId, { title: 'normal', repository_ids: [gl.id, gh.id] });

    const response = await api.request<LaunchedSession>('POST', `/api/tasks/${task.id}/sessions`);
    expect(response.status).toBe(201);
    const session = response.body;
    expect(session.mcp_url).toBe(`${backend.ready.agentctl.mcpUrl}/sessions/${session.session_id}/mcp`);
    expect(session.mcp_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.launch_config).toEqual({
      session_id: session.session_id,
      task_id: task.id,
      workspace_id: workspaceId,
      surface: 'kanban_task',
      question_capability: 'user',
      providers: ['github', 'gitlab'],
      revision: 1,
      owns_task_title: false,
      system_prompt: expect.stringContaining(USER_Q),
      agent: null,
    });

    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    const listed = await mcp.toolNames();
    expect(listed).toEqual(expect.arrayContaining([USER_Q, PR_TOOL, MR_TOOL]));
    expect(listed).not.toContain(PARENT_Q);

    const reported = await getSession(session.session_id);
    expect(reported).toMatchObject({
      id: session.session_id,
      task_id: task.id,
      state: 'waiting_for_input', // no agent profile: an MCP-only session is idle once agentctl took it
      executor: 'local',
      revision: 1,
      launch_config: session.launch_config,
      mcp_url: session.mcp_url,
      tools: listed,
      agentctl: { reachable: true },
      agent: { status: 'none', pid: null, current_prompt_id: null },
    });
    expect(reported.connection_count).toBeGreaterThanOrEqual(1);
  });

  test('autopilot child asks its parent; autopilot root has no question tool and is told to proceed', async () => {
    const { api, workspaceId, getSession } = await setup();
    const gl = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/group/web' });
    const parent = await api.task(workspaceId, { title: 'parent', autopilot: true });
    const child = await api.task(workspaceId, {
      title: 'child',
      parent_id: parent.id,
      autopilot: true,
      repository_ids: [gl.id],
    });

    const childSession = await api.launch(child.id);
    expect(childSession.launch_config).toMatchObject({ question_capability: 'parent', providers: ['gitlab'] });
    expect(childSession.launch_config.system_prompt).toContain(PARENT_Q);
    const childTools = (await getSession(childSession.session_id)).tools;
    expect(childTools).toEqual(expect.arrayContaining([PARENT_Q, MR_TOOL]));
    expect(childTools).not.toEqual(expect.arrayContaining([USER_Q]));
    expect(childTools).not.toEqual(expect.arrayContaining([PR_TOOL]));

    const rootSession = await api.launch(parent.id);
    expect(rootSession.launch_config).toMatchObject({ question_capability: 'none', providers: [] });
    expect(rootSession.launch_config.system_prompt).toMatch(/no one can be asked/i);
    const rootTools = (await getSession(rootSession.session_id)).tools ?? [];
    expect(rootTools.filter((t) => t === USER_Q || t === PARENT_Q)).toEqual([]);
  });

  test('reparenting never changes a running session; the next launch rebuilds the capability', async () => {
    const { api, workspaceId, getSession } = await setup();
    const task = await api.task(workspaceId, { title: 'root', autopilot: true });
    const first = await api.launch(task.id);
    expect(first.launch_config.question_capability).toBe('none');

    const parent = await api.task(workspaceId, { title: 'new parent' });
    expect((await api.request('PATCH', `/api/tasks/${task.id}`, { parent_id: parent.id })).status).toBe(200);
    const running = await getSession(first.session_id);
    expect(running.launch_config.question_capability).toBe('none');
    expect(running.tools).not.toContain(PARENT_Q);

    const second = await api.launch(task.id);
    expect(second.launch_config.question_capability).toBe('parent');
    expect((await getSession(second.session_id)).tools).toContain(PARENT_Q);
  });

  test('surface and title ownership are carried; the token is stored only as its SHA-256', async () => {
    const { backend, api, workspaceId } = await setup();
    const task = await api.task(workspaceId, { title: 't' });
    const session = await api.launch(task.id, { surface: 'office_task', owns_task_title: true });
    expect(session.launch_config).toMatchObject({ surface: 'office_task', owns_task_title: true });
    expect(session.launch_config).not.toHaveProperty('mcp_token');

    const db = await openTestDatabase(backend.dataDir);
    cleanup.defer(() => db.destroy());
    const row: { mcp_token_hash: string; launch_config: unknown; state: string; surface: string } = await db('sessions')
      .where({ id: session.session_id })
      .first();
    expect(row).toMatchObject({
      mcp_token_hash: sha256Hex(session.mcp_token),
      state: 'waiting_for_input',
      surface: 'office_task',
    });
    expect(jsonColumnText(row.launch_config)).not.toContain(session.mcp_token);
  });

  test('agentctl not answering: GET still 200 with reachable=false; a launch fails clearly and is recorded', async () => {
    const { backend, api, workspaceId, getSession } = await setup({ KANDEV_AGENTCTL_TIMEOUT_MS: '300' });
    const task = await api.task(workspaceId, { title: 't' });
    const healthy = await api.launch(task.id);
    const pid = backend.ready.agentctl.pid;

    process.kill(pid, 'SIGSTOP');
    let failed: ApiResponse<{ error: { code: string; message: string; details: { session_id: string } } }>;
    let frozen: SessionBody;
    try {
      frozen = await getSession(healthy.session_id);
      failed = await api.request('POST', `/api/tasks/${task.id}/sessions`, {});
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(frozen).toMatchObject({
      state: 'waiting_for_input',
      tools: null,
      agentctl: { reachable: false },
      agent: null,
    });
    expect(frozen.agentctl.error).toMatch(/GetSession/);
    expect(failed.status).toBe(504);
    expect(failed.body.error).toMatchObject({
      code: 'deadline_exceeded',
      message: expect.stringMatching(/CreateSession/),
    });
    const recorded = await getSession(failed.body.error.details.session_id);
    expect(recorded).toMatchObject({ state: 'failed', last_error: expect.stringMatching(/CreateSession/) });
    const healthyReport = await getSession(healthy.session_id);
    expect(healthyReport.agentctl).toEqual({ reachable: true, launch_config: healthyReport.launch_config });
  });

  test('agentctl died: restarted at once; sessions before and after it are served by the new one', async () => {
    const { backend, api, workspaceId, getSession } = await setup();
    const task = await api.task(workspaceId, { title: 't' });
    const before = await api.launch(task.id);
    const agentctl = async () => (await api.request<AgentctlBody>('GET', '/api/agentctl')).body;
    expect(await agentctl()).toMatchObject({
      running: true,
      reachable: true,
      pid: backend.ready.agentctl.pid,
      grpc_address: backend.ready.agentctl.grpcAddress,
      mcp_url: backend.ready.agentctl.mcpUrl,
    });

    killPid(backend.ready.agentctl.pid);
    // Barrier: a new agentctl is up and holds the session launched before (restored on it).
    const restarted = await waitUntil(
      async () => {
        const body = await agentctl();
        const report = await getSession(before.session_id);
        const held = report.agentctl.reachable && report.agentctl.launch_config !== null;
        return body.running && body.pid !== backend.ready.agentctl.pid && held ? body : undefined;
      },
      { timeoutMs: 20_000, logs: backend.logs, what: 'a new agentctl holding the session' },
    );
    expect(isPidAlive(restarted.pid ?? 0)).toBe(true);
    const beforeReport = await getSession(before.session_id);
    expect(beforeReport.agentctl).toEqual({ reachable: true, launch_config: beforeReport.launch_config });

    const after = await api.launch(task.id);
    expect(after.mcp_url.startsWith(`${restarted.mcp_url}/sessions/`)).toBe(true);
    const afterReport = await getSession(after.session_id);
    expect(afterReport.agentctl).toEqual({ reachable: true, launch_config: afterReport.launch_config });
  });
});
