import type { Agentctls } from '../agentctl/agentctls';
import type { WorkspaceMount } from '../agentctl/executor';
import type { Logger } from '../../platform/logger/logger';
import type { TaskWorkspaces } from '../task-workspaces/task-workspaces';
import { posix } from 'node:path';
import { agentCwd, CONTAINER_WORKSPACE_PATH } from '../task-workspaces/workspace-layout';
import { isPerSessionKind } from '../agentctl/executor';

/** Where a launching or resuming session's agent works, and what its container mounts. */
export interface PreparedWorkspace {
  agentCwd: string | null;
  mount: WorkspaceMount | undefined;
}

const NO_WORKSPACE: PreparedWorkspace = { agentCwd: null, mount: undefined };

/**
 * Before a launch or resume writes anything: the task's workspace is made or brought up to date (a
 * failed checkout rejects here, so no session row is written for it). A docker session's agent works at
 * the container's mount path, a remote one's under the shared dir its profile names
 * (docs/workspaces.md), a local one's at the host path.
 */
export async function prepareSessionWorkspace(
  workspaces: TaskWorkspaces | undefined,
  agentctls: Pick<Agentctls, 'kindOf' | 'sharedWorkspacesDirOf'>,
  task: { id: string; agentProfileId: string | null } | undefined,
  executor: string,
): Promise<PreparedWorkspace> {
  // An MCP-only session (no agent profile) runs nothing in a checkout: its client works wherever it
  // is, so nothing is cloned for it (docs/workspaces.md). An unknown task fails in the launch's read.
  if (workspaces === undefined || task === undefined || task.agentProfileId === null) return NO_WORKSPACE;
  const taskId = task.id;
  const layout = await workspaces.ensure(taskId);
  const kind = agentctls.kindOf(executor);
  // Per-session containers and pods mount the workspace at the same path (docker bind, kubernetes claim).
  if (isPerSessionKind(kind)) {
    const gitDirs = layout.folders.flatMap((f) => (f.gitCommonDir === null ? [] : [f.gitCommonDir]));
    return { agentCwd: agentCwd(layout, CONTAINER_WORKSPACE_PATH), mount: { hostPath: layout.root, gitDirs } };
  }
  if (kind === 'remote') {
    // Without shared storage the remote agentctl cannot see the workspace: its agent runs where that
    // agentctl does (docs/workspaces.md, Executors).
    const shared = agentctls.sharedWorkspacesDirOf(executor);
    return { agentCwd: shared === undefined ? null : agentCwd(layout, posix.join(shared, taskId)), mount: undefined };
  }
  return { agentCwd: agentCwd(layout), mount: undefined };
}

/** After an archive stopped the task's sessions: its workspace goes when so configured; a failure is logged. */
export async function cleanupArchivedWorkspace(
  workspaces: TaskWorkspaces | undefined,
  taskId: string,
  logger: Logger,
): Promise<void> {
  if (workspaces === undefined || !workspaces.config.cleanupOnArchive) return;
  try {
    await workspaces.cleanup(taskId);
  } catch (error) {
    logger.warn({ err: error, taskId }, 'removing the archived task workspace failed');
  }
}
