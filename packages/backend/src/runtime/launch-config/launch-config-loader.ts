import { AppError, type LaunchConfig, type Surface } from '@kandev/protocol';
import type { Stores } from '../../platform/store/unit-of-work';
import { buildLaunchConfig } from './launch-config-builder';

/** What a launch or a resume asks for; everything else is read from the database. */
export interface LaunchRequest {
  taskId: string;
  sessionId: string;
  surface: Surface;
  ownsTaskTitle: boolean;
  revision: number;
  mcpToken: string;
  /** Resume: the agent's ACP session to continue with session/load (null at launch). */
  resumeAcpSessionId: string | null;
  /**
   * The agent's working directory: in the task's workspace (task-workspaces/, prepared before this read;
   * inside a container, its mount path). null only where no workspaces are configured (test harnesses).
   */
  agentCwd: string | null;
}

/**
 * The one read a launch config is built from (launch and resume share it): the task, whether its
 * direct parent exists, the providers of every attached repository and the agent command, inside the
 * caller's transaction, then the pure builder. The agent runs in the task workspace the caller
 * prepared (never a repository's own checkout, nor a daemon's directory). The result carries the profile's real env values: store or
 * show it only through redactLaunchConfig.
 */
export async function loadLaunchConfig(stores: Stores, request: LaunchRequest): Promise<LaunchConfig> {
  const { taskId } = request;
  // Reads that do not wait for each other are sent together (on PostgreSQL: one round trip).
  const [task, attached] = await Promise.all([
    stores.tasks.findById(taskId),
    stores.tasks.attachedRepositories(taskId),
  ]);
  if (task === undefined) throw new AppError('not_found', `task ${taskId} not found`);
  if (task.archivedAt !== null) throw new AppError('failed_precondition', `task ${taskId} is archived`);
  const [parent, profile] = await Promise.all([
    task.parentId === null ? undefined : stores.tasks.findById(task.parentId),
    task.agentProfileId === null ? undefined : stores.agentProfiles.findCommand(task.agentProfileId),
  ]);
  const hasParent = parent !== undefined;
  const agent =
    profile === undefined
      ? null
      : { ...profile, cwd: request.agentCwd, resumeAcpSessionId: request.resumeAcpSessionId };
  return buildLaunchConfig({
    task,
    hasParent,
    repositoryProviders: attached.map((a) => a.provider),
    surface: request.surface,
    ownsTaskTitle: request.ownsTaskTitle,
    sessionId: request.sessionId,
    revision: request.revision,
    mcpToken: request.mcpToken,
    agent,
  });
}
