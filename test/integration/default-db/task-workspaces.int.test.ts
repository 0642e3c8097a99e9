// Task workspaces end to end: a real backend (its own agentctl) runs the scripted test agent on a task
// with a local git repository; the agent reports a working directory inside the task's workspace, on
// the task branch (real git in the agent's process). A source added live over REST is cloned from
// `git daemon` while the session runs; archiving removes the workspace; bad workspace dirs stop the start.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { launchAgentSession } from '../../helpers/agent-runtime';
import { useCleanup } from '../../helpers/cleanup';
import {
  currentBranch,
  git,
  makeBareRepository,
  makeRepository,
  startGitDaemon,
  worktreePaths,
} from '../../helpers/git-repos';
import { BACKEND_MAIN, tempDir } from '../../helpers/processes';

const CHECKOUTS = { KANDEV_WORKSPACE_CHECKOUT: 'true' };

async function startFails(cleanup: ReturnType<typeof useCleanup>, env: Record<string, string>) {
  const child = spawn(process.execPath, [BACKEND_MAIN], {
    env: { PATH: process.env.PATH ?? '', KANDEV_DATA_DIR: tempDir(cleanup), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}

describe('task workspaces (real backend, agentctl and test agent)', () => {
  const cleanup = useCleanup();

  test('the test agent works inside its task workspace, on the task branch; a live add is cloned; archive cleans up', async () => {
    const source = makeRepository(tempDir(cleanup, 'kandev-repos-'), 'app');
    const setup = await launchAgentSession(cleanup, 'workspace', { localPath: source, env: CHECKOUTS });
    const { runtime, taskId, backend } = setup;
    const sessionId = setup.session.session_id;
    const root = realpathSync(join(backend.dataDir, 'workspaces', taskId));
    const folder = join(root, 'app');
    expect(setup.session.launch_config).toMatchObject({ agent: { cwd: folder } });

    await runtime.postPrompt(sessionId, 'where are you?');
    await runtime.waitForDrained(sessionId, 1);
    expect(await runtime.agentReplies(taskId)).toEqual([`cwd=${folder} branch=kandev/${taskId}`]);
    expect(worktreePaths(source)).toEqual([source, folder]);

    // A remote source added while the session runs is cloned next to the worktree, which is kept.
    writeFileSync(join(folder, 'work'), 'in progress');
    const daemon = await startGitDaemon(cleanup);
    makeBareRepository(daemon.base, 'acme', 'lib');
    const added = await runtime.api.request('POST', `/api/tasks/${taskId}/workspace-sources`, {
      sources: [{ remote_url: `${daemon.url}acme/lib.git`, base_branch: 'develop' }],
    });
    expect(added.status).toBe(201);
    expect(currentBranch(join(root, 'lib'))).toBe(`kandev/${taskId}`);
    expect(existsSync(join(root, 'lib', 'DEVELOP'))).toBe(true);
    expect(existsSync(join(folder, 'work'))).toBe(true);
    await runtime.postPrompt(sessionId, 'where now?');
    await runtime.waitForDrained(sessionId, 2);
    expect((await runtime.agentReplies(taskId))[1]).toBe(`cwd=${folder} branch=kandev/${taskId}`);

    expect((await runtime.api.request('DELETE', `/api/tasks/${taskId}`)).status).toBe(204);
    expect(existsSync(root)).toBe(false);
    expect(worktreePaths(source)).toEqual([source]);
    expect(git(source, 'branch', '--list', `kandev/${taskId}`)).toContain(`kandev/${taskId}`);
  });

  test('a relative workspaces dir, or one that cannot be written, stops the start with a clear error', async () => {
    const relative = await startFails(cleanup, { KANDEV_WORKSPACES_DIR: 'relative/workspaces' });
    expect(relative.code).toBe(2);
    expect(relative.stdout).toBe('');
    expect(relative.stderr).toBe('backend: invalid configuration: KANDEV_WORKSPACES_DIR\n');

    const file = join(tempDir(cleanup), 'a-file');
    writeFileSync(file, '');
    const unwritable = await startFails(cleanup, { KANDEV_WORKSPACES_DIR: join(file, 'workspaces') });
    expect(unwritable.code).toBe(2);
    expect(unwritable.stdout).toBe('');
    expect(unwritable.stderr).toContain(
      `backend failed to start: the workspaces dir ${join(file, 'workspaces')} (KANDEV_WORKSPACES_DIR) is not writable: ENOTDIR`,
    );
  });
});
