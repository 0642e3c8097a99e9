// Task workspaces in process with real git (no mocks): worktrees of local repositories, clones from
// `git daemon` on loopback, live adds while a session runs, detach on removal, archive cleanup, failed
// checkouts, and the agent's cwd as the fake agentctl receives it.
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAppError } from '@kandev/protocol';
import {
  AgentProfileService,
  CreateAgentProfileBodySchema,
  createInProcessBackend,
  FakeAgentctl,
  fakeAgentctlPort,
  prepareSessionWorkspace,
  type TaskWorkspacesConfig,
} from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import {
  currentBranch,
  git,
  makeBareRepository,
  makeRepository,
  startGitDaemon,
  workspacesConfig,
  worktreePaths,
} from '../../helpers/git-repos';
import { tempDir } from '../../helpers/processes';

describe('task workspaces (in process, real git)', () => {
  const cleanup = useCleanup();

  async function setup(overrides: Partial<TaskWorkspacesConfig> = {}) {
    const dir = join(tempDir(cleanup, 'kandev-workspaces-'), 'workspaces');
    const repos = tempDir(cleanup, 'kandev-repos-');
    const agentctl = new FakeAgentctl();
    const workspaces = { ...workspacesConfig(dir), ...overrides };
    const { backend } = await createInProcessBackend(cleanup, {
      agentctl: fakeAgentctlPort(agentctl),
      config: { workspaces },
    });
    const now = new Date().toISOString();
    await backend.uow.read.workspaces.insert({ id: 'w', name: 'w', createdAt: now });
    const profiles = new AgentProfileService({ uow: backend.uow, clock: () => new Date() });
    const profile = await profiles.create(
      CreateAgentProfileBodySchema.parse({ name: 'agent', command: 'agent', supports_mcp: true }),
    );
    const task = async (title = 't', agentProfileId: string | null = profile.id) =>
      (await backend.tasks.create({ workspace_id: 'w', title, agent_profile_id: agentProfileId ?? undefined })).task.id;
    const launch = (taskId: string) =>
      backend.sessions.launch(taskId, { surface: 'kanban_task', owns_task_title: false });
    const cwdOf = (sessionId: string) => agentctl.held.get(sessionId)?.agent?.cwd;
    return { backend, dir, repos, agentctl, task, launch, cwdOf };
  }

  test('a local repository gets a worktree on the task branch; the agent works in it; a relaunch keeps it', async () => {
    const env = await setup();
    const source = makeRepository(env.repos, 'app');
    const taskId = await env.task();
    await env.backend.sources.add(taskId, { sources: [{ local_path: source }] });
    const first = await env.launch(taskId);
    const folder = join(env.dir, taskId, 'app');
    expect(env.cwdOf(first.session.id)).toBe(folder);
    expect(first.config.agent?.cwd).toBe(folder);
    expect(lstatSync(join(folder, '.git')).isFile()).toBe(true);
    expect(currentBranch(folder)).toBe(`kandev/${taskId}`);
    expect(readFileSync(join(folder, 'README'), 'utf8')).toBe('main\n'); // from the repository's HEAD
    expect(worktreePaths(source)).toEqual([source, folder]);

    writeFileSync(join(folder, 'work-in-progress'), 'kept');
    const second = await env.launch(taskId);
    expect(env.cwdOf(second.session.id)).toBe(folder);
    expect(readFileSync(join(folder, 'work-in-progress'), 'utf8')).toBe('kept');
    expect(worktreePaths(source)).toEqual([source, folder]);
  });

  test('a remote repository is cloned from git daemon on its base branch; a live add joins a running session', async () => {
    const env = await setup();
    const daemon = await startGitDaemon(cleanup);
    makeBareRepository(daemon.base, 'acme', 'service');
    const local = makeRepository(env.repos, 'app');
    const taskId = await env.task();
    await env.backend.sources.add(taskId, { sources: [{ local_path: local }] });
    const launched = await env.launch(taskId);
    const root = join(env.dir, taskId);
    writeFileSync(join(root, 'app', 'edit'), 'mine');

    const remote = `${daemon.url}acme/service.git`;
    await env.backend.sources.add(taskId, { sources: [{ remote_url: remote, base_branch: 'develop' }] });
    const clone = join(root, 'service');
    expect(currentBranch(clone)).toBe(`kandev/${taskId}`);
    expect(readFileSync(join(clone, 'DEVELOP'), 'utf8')).toBe('develop\n');
    expect(git(clone, 'config', '--get', 'remote.origin.url')).toBe(remote);
    expect(readFileSync(join(root, 'app', 'edit'), 'utf8')).toBe('mine'); // the existing worktree is kept
    // The running session keeps its cwd (the first repository's folder); the next one works at the root.
    expect(env.cwdOf(launched.session.id)).toBe(join(root, 'app'));
    expect(env.cwdOf((await env.launch(taskId)).session.id)).toBe(root);
  });

  test('two repositories with one name get app and app-2; a removed source is detached and re-adopted', async () => {
    const env = await setup();
    const daemon = await startGitDaemon(cleanup);
    makeBareRepository(daemon.base, 'acme', 'app');
    const local = makeRepository(env.repos, 'app');
    const taskId = await env.task();
    const remote = `${daemon.url}acme/app.git`;
    await env.backend.sources.add(taskId, { sources: [{ local_path: local }] });
    await env.launch(taskId);
    await env.backend.sources.add(taskId, { sources: [{ remote_url: remote }] }); // live: app is taken
    const root = join(env.dir, taskId);
    expect(lstatSync(join(root, 'app', '.git')).isFile()).toBe(true); // the worktree, attached first
    expect(git(join(root, 'app-2'), 'config', '--get', 'remote.origin.url')).toBe(remote);

    const localId = (await env.backend.uow.read.tasks.attachments(taskId))[0]?.repositoryId ?? '';
    await env.backend.sources.remove(taskId, localId);
    writeFileSync(join(root, 'app', 'after-detach'), 'x');
    await env.launch(taskId); // the clone keeps its folder; the detached worktree stays as it was
    expect(readFileSync(join(root, 'app', 'after-detach'), 'utf8')).toBe('x');
    expect(git(join(root, 'app-2'), 'config', '--get', 'remote.origin.url')).toBe(remote);

    await env.backend.sources.add(taskId, { sources: [{ repository_id: localId }] });
    expect(readFileSync(join(root, 'app', 'after-detach'), 'utf8')).toBe('x'); // its old folder, adopted
    expect(worktreePaths(local)).toEqual([local, join(root, 'app')]);
  });

  test('a failed checkout fails the launch naming the repository; no session is written, no folder left', async () => {
    const env = await setup();
    const notGit = join(env.repos, 'plain');
    mkdirSync(notGit);
    const taskId = await env.task();
    await env.backend.sources.add(taskId, { sources: [{ local_path: notGit }] });
    const failure = await env.launch(taskId).catch((error: unknown) => error);
    expect(isAppError(failure) && failure.code).toBe('failed_precondition');
    expect((failure as Error).message).toMatch(
      /checking out repository plain \(.*plain\) failed: git rev-parse failed/,
    );
    expect(existsSync(join(env.dir, taskId, 'plain'))).toBe(false);
    expect(await env.backend.uow.read.sessions.listByTask(taskId)).toEqual([]);

    const daemon = await startGitDaemon(cleanup);
    const other = await env.task('other');
    await env.backend.sources.add(other, { sources: [{ remote_url: `${daemon.url}acme/missing.git` }] });
    await expect(env.launch(other)).rejects.toThrow(
      /checking out repository missing \(git:\/\/127\.0\.0\.1:\d+\/acme\/missing\.git\) failed/,
    );
    expect(existsSync(join(env.dir, other, 'missing'))).toBe(false);
  });

  test('archiving removes the workspace and its worktrees (the branch stays); nothing outside is touched', async () => {
    const env = await setup();
    const source = makeRepository(env.repos, 'app');
    const outside = tempDir(cleanup, 'kandev-outside-');
    writeFileSync(join(outside, 'precious'), 'keep');
    const taskId = await env.task();
    await env.backend.sources.add(taskId, { sources: [{ local_path: source }] });
    await env.launch(taskId);
    const root = join(env.dir, taskId);
    symlinkSync(outside, join(root, 'link-out'));
    symlinkSync(outside, join(root, 'app', 'link-out'));

    await env.backend.sessions.archiveTask(taskId);
    expect(existsSync(root)).toBe(false);
    expect(worktreePaths(source)).toEqual([source]);
    expect(git(source, 'branch', '--list', `kandev/${taskId}`)).toContain(`kandev/${taskId}`);
    expect(readFileSync(join(outside, 'precious'), 'utf8')).toBe('keep');
    expect(existsSync(env.dir)).toBe(true);
  });

  test('with cleanup on archive off the workspace stays; without checkouts the agent works in an empty workspace', async () => {
    const env = await setup({ cleanupOnArchive: false, checkout: false });
    const source = makeRepository(env.repos, 'app');
    const taskId = await env.task();
    await env.backend.sources.add(taskId, { sources: [{ local_path: source }] });
    const launched = await env.launch(taskId);
    const root = join(env.dir, taskId);
    expect(env.cwdOf(launched.session.id)).toBe(root);
    expect(existsSync(join(root, 'app'))).toBe(false);
    await env.backend.sessions.archiveTask(taskId);
    expect(existsSync(root)).toBe(true);
  });

  test('docker sessions mount the workspace and the source git dir; a remote one works under its shared dir', async () => {
    const env = await setup();
    const source = makeRepository(env.repos, 'app');
    const taskId = await env.task();
    await env.backend.sources.add(taskId, { sources: [{ local_path: source }] });
    const executor = (kind: 'docker' | 'remote', shared?: string) => ({
      kindOf: () => kind,
      sharedWorkspacesDirOf: () => shared,
    });
    const task = { id: taskId, agentProfileId: 'profile' };
    const docker = await prepareSessionWorkspace(env.backend.workspaces, executor('docker'), task, 'docker');
    expect(docker).toEqual({
      agentCwd: '/workspace/app',
      mount: { hostPath: join(env.dir, taskId), gitDirs: [join(source, '.git')] },
    });
    const shared = await prepareSessionWorkspace(env.backend.workspaces, executor('remote', '/ws'), task, 'far');
    expect(shared).toEqual({ agentCwd: `/ws/${taskId}/app`, mount: undefined });
    const unshared = await prepareSessionWorkspace(env.backend.workspaces, executor('remote'), task, 'far');
    expect(unshared).toEqual({ agentCwd: null, mount: undefined });
  });

  test('an MCP-only session (no agent profile) gets no checkout; its agent-less config has no cwd', async () => {
    const env = await setup();
    makeRepository(env.repos, 'app');
    const taskId = await env.task('mcp only', null);
    // A remote nobody can clone: a checkout would fail the launch.
    await env.backend.sources.add(taskId, { sources: [{ remote_url: 'https://github.com/acme/nowhere.git' }] });
    const launched = await env.launch(taskId);
    expect(launched.session.state).not.toBe('failed');
    expect(env.agentctl.held.get(launched.session.id)?.agent ?? null).toBeNull();
    expect(existsSync(join(env.dir, taskId))).toBe(false);
  });

  test('an id that would leave the workspaces dir is refused before anything is touched', async () => {
    const env = await setup();
    const workspaces = env.backend.workspaces;
    expect(() => workspaces?.pathOf('../escape')).toThrow(/is no path/);
    await expect(workspaces?.cleanup('..')).rejects.toThrow(/is no path/);
    expect(existsSync(env.repos)).toBe(true);
  });
});
