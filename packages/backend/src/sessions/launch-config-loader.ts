import { AppError, type LaunchConfig, type Surface } from '@kandev/protocol';
import type { Stores } from '../store/unit-of-work';
import { buildLaunchConfig } from './launch-config-builder';

/** What a launch or a resume asks for; everything else is read from the database. */
export interface LaunchRequest {
  taskId: string;
  sessionId: string;
  surface: Surface;
  ownsTaskTitle: boolean;
  revision: number;
  mcpToken: string;
}

/**
 * The one read a launch config is built from (launch and resume share it): the task, whether its
 * direct parent exists, the providers of every attached repository and the agent command, inside the
 * caller's transaction, then the pure builder.
 */
export async function loadLaunchConfig(stores: Stores, request: LaunchRequest): Promise<LaunchConfig> {
  const { taskId } = request;
  const task = await stores.tasks.findById(taskId);
  if (task === undefined) throw new AppError('not_found', `task ${taskId} not found`);
  if (task.archivedAt !== null) throw new AppError('failed_precondition', `task ${taskId} is archived`);
  const hasParent = task.parentId !== null && (await stores.tasks.findById(task.parentId)) !== undefined;
  const attached = await stores.tasks.attachedRepositories(taskId);
  const agent =
    task.agentProfileId === null ? null : ((await stores.agentProfiles.findCommand(task.agentProfileId)) ?? null);
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
