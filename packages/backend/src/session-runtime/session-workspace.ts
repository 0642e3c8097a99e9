import type { Agentctls } from '../executors/agentctls';
import type { WorkspaceMount } from '../executors/executor';
import type { Logger } from '../logger';
import type { TaskWorkspaces } from '../task-workspaces/task-workspaces';
import { agentCwd } from '../task-workspaces/workspace-layout';

/** Where a launching or resuming session's agent works, and what its container mounts. */
export interface PreparedWorkspace {
  agentCwd: string | null;
  mount: WorkspaceMount | undefined;
}

const NO_WORKSPACE: PreparedWorkspace = { agentCwd: null, mount: undefined };

/**
 * Before a launch or resume writes anything: the task's workspace is made or brought up to date (a
 * failed checkout rejects here, so no session row is written for it). A docker session's agent works at
 * the container's mount path; every other executor's on the host path (a remote agentctl shares it:
 * ADR 2026-12-01 task workspaces).
 */
export async function prepareSessionWorkspace(
  workspaces: TaskWorkspaces | undefined,
  agentctls: Agentctls,
  taskId: string,
  executor: string,
): Promise<PreparedWorkspace> {
  if (workspaces === undefined) return NO_WORKSPACE;
  const layout = await workspaces.ensure(taskId);
  const inContainer = agentctls.kindOf(executor) === 'docker';
  const gitDirs = layout.folders.flatMap((f) => (f.gitCommonDir === null ? [] : [f.gitCommonDir]));
  return {
    agentCwd: agentCwd(layout, inContainer),
    mount: inContainer ? { hostPath: layout.root, gitDirs } : undefined,
  };
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
