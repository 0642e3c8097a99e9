// The README's compose walk-through, automated: images built by .ci/run, `docker-compose up -d`, a task
// with a github and a gitlab repository over REST, a session launched on the compose agentctl (remote
// executor), its tools listed by an MCP client against the containerised agentctl, a source added
// live and the change seen, then `down` leaves no container of the project running.
import { useCleanup } from '../../helpers/cleanup';
import { expectSameConfig, heldByAgentctl } from '../../helpers/conformance';
import { composeStack } from '../../helpers/container-compose';
import { containersWith, docker } from '../../helpers/container-engine';
import { LiveApi } from '../../helpers/live-updates';
import { connectMcp } from '../../helpers/mcp';
import { KANBAN_CORE, MR_PAIR, PR_PAIR, sorted } from '../../helpers/tool-names';
import { waitUntil } from '../../helpers/wait';

describe('docker-compose.yml', () => {
  const cleanup = useCleanup();

  test('up -d: REST, a session on the compose agentctl, MCP tools, a live source; down leaves nothing running', async () => {
    const stack = await composeStack(cleanup);
    // The backend starts once agentctl is ready, and both report readiness (not liveness) to the engine.
    const config = stack.config();
    expect(config).toMatch(/depends_on:\s+agentctl:\s+condition: service_healthy/);
    expect(config.match(/\/readyz/g)).toHaveLength(2);
    const up = stack.compose('up', '-d');
    expect({ status: up.status, output: up.output }).toMatchObject({ status: 0 });
    const logs = () => stack.compose('logs', '--no-color').output;
    // Ready: the backend's database takes a write and it reaches the compose agentctl.
    await waitUntil(
      async () => (await fetch(`http://127.0.0.1:${stack.ports.http}/readyz`).catch(() => undefined))?.ok,
      {
        timeoutMs: 30_000,
        intervalMs: 200,
        logs,
        what: 'the backend to be ready',
      },
    );
    if (stack.healthchecksRun) {
      const health = async () =>
        Promise.all(
          (await containersWith([`com.docker.compose.project=${stack.project}`])).map(
            async (info) => (await docker().getContainer(info.Id).inspect()).State.Health?.Status,
          ),
        );
      await waitUntil(async () => (await health()).every((status) => status === 'healthy'), {
        timeoutMs: 60_000,
        intervalMs: 500,
        logs,
        what: 'both containers healthy',
      });
    }
    // The operator token from .env (KANDEV_API_TOKEN): without it REST answers 401.
    const anonymous = await fetch(`http://127.0.0.1:${stack.ports.http}/api/workspaces`);
    expect(anonymous.status).toBe(401);
    const api = new LiveApi(`http://127.0.0.1:${stack.ports.http}`, stack.apiToken);

    const workspaceId = await api.workspace();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const gitlab = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/web' });
    const task = await api.task(workspaceId, { title: 'compose', repository_ids: [github.id] });
    const session = await api.launch(task.id);
    expect(session.mcp_url).toBe(`http://127.0.0.1:${stack.ports.mcp}/sessions/${session.session_id}/mcp`);
    const stored = await api.request<{ executor: string; launch_config: Parameters<typeof expectSameConfig>[1] }>(
      'GET',
      `/api/sessions/${session.session_id}`,
    );
    expect(stored.body.executor).toBe('remote');
    const access = { grpcAddress: `127.0.0.1:${stack.ports.grpc}`, controlToken: stack.token };
    expectSameConfig((await heldByAgentctl(cleanup, access, session.session_id)).config, stored.body.launch_config);

    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR]));
    await waitUntil(() => mcp.notificationStreamOpen(), { timeoutMs: 5_000, logs, what: 'the SSE stream' });
    const batch = await api.addSources(task.id, [{ repository_id: gitlab.id }]);
    expect(batch.status).toBe(201);
    await waitUntil(() => mcp.listChangedCount() >= 1, { timeoutMs: 10_000, logs, what: 'list_changed' });
    expect(await mcp.toolNames()).toEqual(sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR, ...MR_PAIR]));
    await mcp.client.close();

    const down = stack.compose('down', '-v');
    expect(down.status).toBe(0);
    expect(await containersWith([`com.docker.compose.project=${stack.project}`])).toEqual([]);
  });
});
