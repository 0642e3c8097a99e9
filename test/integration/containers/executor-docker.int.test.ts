// The docker executor's lifecycle with a real container engine: what a container shows in `docker
// inspect`, a container killed mid-session (the session fails with the reason; resume starts a new
// container with the full config), and backend restarts (reattach live sessions' containers, remove
// the rest; a graceful stop leaves nothing running). Run by .ci/run; skipped by `npm test` without one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useCleanup } from '../../helpers/cleanup';
import { expectSameConfig, heldByAgentctl } from '../../helpers/conformance';
import {
  AGENTCTL_IMAGE,
  backendIdOf,
  containersWith,
  docker,
  dockerHost,
  MANAGED,
  removeBackendContainersAfter,
  sessionContainer,
  waitForNoContainers,
} from '../../helpers/container-engine';
import { LiveApi } from '../../helpers/live-updates';
import { currentBranch, makeRepository } from '../../helpers/git-repos';
import { connectMcp } from '../../helpers/mcp';
import { startBackend, stopProcess, tempDir } from '../../helpers/processes';
import { KANBAN_CORE, MR_PAIR, PR_PAIR, sorted } from '../../helpers/tool-names';
import { waitUntil } from '../../helpers/wait';

const TOOLS = sorted([...KANBAN_CORE, 'ask_user_question_kandev', ...PR_PAIR, ...MR_PAIR]);

describe('docker executor', () => {
  const cleanup = useCleanup();

  async function boot(dataDir: string, env: Record<string, string> = {}) {
    const backend = await startBackend(cleanup, {
      ...env,
      KANDEV_DATA_DIR: dataDir,
      KANDEV_EXECUTORS: 'docker',
      KANDEV_DOCKER_IMAGE: AGENTCTL_IMAGE,
      DOCKER_HOST: dockerHost(),
    });
    return { backend, api: new LiveApi(backend.ready.url, backend.apiToken) };
  }

  async function setup() {
    const dataDir = tempDir(cleanup);
    removeBackendContainersAfter(cleanup, dataDir);
    const { backend, api } = await boot(dataDir);
    const workspaceId = await api.workspace();
    const github = await api.repository(workspaceId, { remote_url: 'https://github.com/acme/api' });
    const gitlab = await api.repository(workspaceId, { remote_url: 'https://gitlab.com/acme/web' });
    const task = await api.task(workspaceId, { title: 't', repository_ids: [github.id, gitlab.id] });
    return { dataDir, backend, api, taskId: task.id };
  }

  test('labels identify backend, executor, session and agentctl; no token in the env; ports on 127.0.0.1 only', async () => {
    const { dataDir, api, taskId } = await setup();
    const session = await api.launch(taskId); // docker is the default executor here
    const container = await sessionContainer(dataDir, session.session_id);
    expect(container.info.Labels).toMatchObject({
      'dev.kandev.managed-by': 'kandev-docker-executor',
      'dev.kandev.backend-id': backendIdOf(dataDir),
      'dev.kandev.executor': 'docker',
      'dev.kandev.session-id': session.session_id,
      'dev.kandev.agentctl-id': expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    const inspected = await docker().getContainer(container.id).inspect();
    expect(JSON.stringify(inspected.Config.Env)).not.toContain(container.controlToken);
    expect(inspected.Config.Env).toContain('KANDEV_AGENTCTL_TOKEN_FILE=/run/secrets/kandev-agentctl-token');
    expect(container.info.Ports.every((port) => port.IP === '127.0.0.1')).toBe(true);
    expect(await (await connectMcp(cleanup, session.mcp_url, session.mcp_token)).toolNames()).toEqual(TOOLS);
  });

  test('a container killed mid-session: the session fails with the reason; resume starts a new container with the full config', async () => {
    const { dataDir, backend, api, taskId } = await setup();
    const session = await api.launch(taskId);
    const first = await sessionContainer(dataDir, session.session_id);
    await docker().getContainer(first.id).kill();

    const failed = await waitUntil(
      async () => {
        const body = await api.session(session.session_id);
        return body.state === 'failed' ? body : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, logs: backend.logs, what: 'the session to fail' },
    );
    expect(failed.last_error).toMatch(/agentctl container exited/);
    await waitForNoContainers(
      [MANAGED, `dev.kandev.agentctl-id=${first.info.Labels['dev.kandev.agentctl-id']}`],
      backend.logs,
    );

    const resumed = await api.resume(session.session_id);
    expect(resumed.status).toBe(200);
    const second = await sessionContainer(dataDir, session.session_id);
    expect(second.id).not.toBe(first.id);
    const stored = await api.request<{ launch_config: Parameters<typeof expectSameConfig>[1] }>(
      'GET',
      `/api/sessions/${session.session_id}`,
    );
    const held = await heldByAgentctl(cleanup, second, session.session_id);
    expect(held.config.revision).toBe(2);
    expectSameConfig(held.config, stored.body.launch_config);
    expect(await (await connectMcp(cleanup, resumed.body.mcp_url, resumed.body.mcp_token)).toolNames()).toEqual(TOOLS);
  });

  test('backend restart: live sessions keep their containers, ended ones lose them; a graceful stop removes the rest', async () => {
    const { dataDir, backend, api, taskId } = await setup();
    const kept = await api.launch(taskId);
    const ended = await api.launch(taskId);
    const endedContainer = await sessionContainer(dataDir, ended.session_id);
    const mcp = await connectMcp(cleanup, kept.mcp_url, kept.mcp_token);

    // Crash: the containers outlive the backend. Meanwhile `ended` is recorded as stopped behind its back.
    backend.child.kill('SIGKILL');
    await new Promise((resolve) => backend.child.once('exit', resolve));
    expect(await mcp.toolNames()).toEqual(TOOLS);
    const byBackend = [MANAGED, `dev.kandev.backend-id=${backendIdOf(dataDir)}`];
    expect((await containersWith(byBackend)).length).toBe(2);

    const restarted = await boot(dataDir);
    await restarted.api.stopSession(ended.session_id);
    await waitForNoContainers([MANAGED, `dev.kandev.session-id=${ended.session_id}`], restarted.backend.logs);
    expect((await containersWith(byBackend)).map((c) => c.Id)).not.toContain(endedContainer.id);
    // The live one was reattached: the backend still reaches it.
    const report = await restarted.api.session(kept.session_id);
    expect(report).toMatchObject({ state: 'waiting_for_input', tools: TOOLS });

    await stopProcess(restarted.backend.child, { graceMs: 10_000 });
    expect(await containersWith(byBackend)).toEqual([]);
  });

  test("a restarted backend reattaches a live session's container and never touches another backend's", async () => {
    const { dataDir, backend, api, taskId } = await setup();
    const session = await api.launch(taskId);
    const container = await sessionContainer(dataDir, session.session_id);
    backend.child.kill('SIGKILL');
    await new Promise((resolve) => backend.child.once('exit', resolve));
    // Another backend's container on the same engine is never touched.
    const foreign = [MANAGED, 'dev.kandev.backend-id=another-backend'];
    const other = await docker().createContainer({
      Image: AGENTCTL_IMAGE,
      Labels: { 'dev.kandev.managed-by': 'kandev-docker-executor', 'dev.kandev.backend-id': 'another-backend' },
      Entrypoint: ['node', '-e', 'setInterval(() => {}, 1000)'],
    });
    cleanup.defer(() => other.remove({ force: true }).catch(() => undefined));
    await other.start();

    const { api: again } = await boot(dataDir);
    // The session is still live in the database, so its container is reattached, not removed.
    expect((await sessionContainer(dataDir, session.session_id)).id).toBe(container.id);
    await again.stopSession(session.session_id);
    expect((await containersWith(foreign)).length).toBe(1);
  });

  test('an agent in a container works in the mounted task workspace, on the task branch, and can write there', async () => {
    const dataDir = tempDir(cleanup);
    removeBackendContainersAfter(cleanup, dataDir);
    const { backend, api } = await boot(dataDir, { KANDEV_WORKSPACE_CHECKOUT: 'true' });
    const source = makeRepository(tempDir(cleanup), 'app');
    const workspaceId = await api.workspace();
    const repository = await api.repository(workspaceId, { local_path: source });
    // The image has no ACP agent: this one records where it runs and as whom, then exits (which
    // fails the session: the barrier after which the files are complete).
    const profile = await api.create<{ id: string }>('/api/agent-profiles', {
      name: 'where',
      command: 'sh',
      args: [
        '-c',
        'pwd > cwd.txt && id -u > uid.txt && cat .git > gitfile.txt && ls "$(sed "s/^gitdir: //" .git)" > gitdir.txt',
      ],
      supports_mcp: false,
    });
    const task = await api.task(workspaceId, {
      title: 't',
      repository_ids: [repository.id],
      agent_profile_id: profile.id,
    });
    const session = await api.launch(task.id);
    await waitUntil(async () => ((await api.session(session.session_id)).state === 'failed' ? true : undefined), {
      timeoutMs: 30_000,
      intervalMs: 100,
      logs: backend.logs,
      what: 'the agent to exit',
    });
    const folder = join(dataDir, 'workspaces', task.id, 'app');
    expect(readFileSync(join(folder, 'cwd.txt'), 'utf8').trim()).toBe('/workspace/app');
    expect(currentBranch(folder)).toBe(`kandev/${task.id}`);
    // As the backend's own uid, so it can write what the backend checked out.
    expect(readFileSync(join(folder, 'uid.txt'), 'utf8').trim()).toBe(String(process.getuid?.()));
    // The worktree's git dir (in the source repository, mounted at its own path) is readable inside.
    expect(readFileSync(join(folder, 'gitdir.txt'), 'utf8')).toContain('HEAD');
  });
});
