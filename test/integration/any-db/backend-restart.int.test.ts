// A backend that crashed left its agentctl serving (tools/list never waits on the backend). A backend
// restarted on the same data dir adopts that agentctl instead of colliding with it, so running sessions
// keep their tools, and a graceful stop of the new backend cleans it up.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BackendApi } from '../../helpers/backend-api';
import { useCleanup } from '../../helpers/cleanup';
import { connectMcp } from '../../helpers/mcp';
import { isPidAlive, killPid, startBackend, stopProcess } from '../../helpers/processes';
import { waitUntil } from '../../helpers/wait';

describe('backend restart after a crash', () => {
  const cleanup = useCleanup();

  test('adopts the agentctl that outlived it; its sessions keep serving and are reported', async () => {
    const first = await startBackend(cleanup);
    const api = new BackendApi(first.ready.url, first.apiToken);
    const workspaceId = await api.workspace();
    const repo = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/web' });
    const task = await api.task(workspaceId, { title: 't', repository_ids: [repo.id] });
    const session = await api.launch(task.id);
    const mcp = await connectMcp(cleanup, session.mcp_url, session.mcp_token);
    const tools = await mcp.toolNames();

    const stateFile = join(first.dataDir, 'agentctl.json');
    expect(statSync(stateFile).mode & 0o777).toBe(0o600);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    const second = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir });
    expect(second.ready.agentctl.pid).toBe(first.ready.agentctl.pid);
    expect(second.ready.agentctl.mcpUrl).toBe(first.ready.agentctl.mcpUrl);
    const report = await new BackendApi(second.ready.url, second.apiToken).request<{
      tools: string[];
      connection_count: number;
    }>('GET', `/api/sessions/${session.session_id}`);
    expect(report.body).toMatchObject({ tools, connection_count: 1 });
    expect(await mcp.toolNames()).toEqual(tools);

    expect(await stopProcess(second.child, { graceMs: 10_000 })).toEqual({ code: 0, signal: null });
    await waitUntil(() => !isPidAlive(first.ready.agentctl.pid), {
      timeoutMs: 5_000,
      what: 'adopted agentctl to exit',
    });
    expect(existsSync(stateFile)).toBe(false);
  });

  test('a stale record (agentctl gone, or a token it does not accept) is not adopted', async () => {
    const first = await startBackend(cleanup);
    const stateFile = join(first.dataDir, 'agentctl.json');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const record = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, unknown>;

    // Same pid, same address, wrong token: some other agentctl, never adopted.
    writeFileSync(stateFile, JSON.stringify({ ...record, controlToken: 'x'.repeat(40) }));
    const second = await startBackend(cleanup, {
      KANDEV_DATA_DIR: first.dataDir,
      KANDEV_AGENTCTL_GRPC_PORT: '0',
      KANDEV_AGENTCTL_MCP_PORT: '0',
    });
    expect(second.ready.agentctl.pid).not.toBe(first.ready.agentctl.pid);
    expect(isPidAlive(first.ready.agentctl.pid)).toBe(true);
    await stopProcess(second.child, { graceMs: 10_000 });

    // Gone: the recorded pid no longer runs, so a fresh agentctl starts.
    killPid(first.ready.agentctl.pid);
    await waitUntil(() => !isPidAlive(first.ready.agentctl.pid), { timeoutMs: 5_000, what: 'old agentctl to exit' });
    writeFileSync(stateFile, JSON.stringify(record));
    const third = await startBackend(cleanup, { KANDEV_DATA_DIR: first.dataDir });
    expect(third.ready.agentctl.pid).not.toBe(first.ready.agentctl.pid);
    expect(isPidAlive(third.ready.agentctl.pid)).toBe(true);
  });
});
