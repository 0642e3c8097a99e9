import { AppError, normalizeProvider, type Provider } from '@kandev/protocol';
import type { Stores } from '../../platform/store/unit-of-work';
import { hasProvider, providerSetOf } from '../../catalogue/repositories/provider-set';
import type { ToolCallContext } from '../tool-calls/tool-handler';
import { providerLabel } from '../../integrations/provider-automation/review-link';

export interface ProviderAccess {
  taskId: string;
  workspaceId: string;
  /** The task's attached repositories of the provider, as committed now. */
  repositoryIds: ReadonlySet<string>;
}

/**
 * The checks every review-automation call passes, read from the database at call time (what agentctl
 * lists is discovery, not permission): the session is bound to the task, the task has a committed
 * repository of the provider, and its workspace has credentials for the provider.
 */
export async function requireProviderAccess(
  stores: Stores,
  context: ToolCallContext,
  provider: Provider,
): Promise<ProviderAccess> {
  const { name, change } = providerLabel(provider);
  if (context.session.taskId !== context.taskId) {
    throw new AppError('permission_denied', 'This session is not bound to the task it calls for.');
  }
  const task = await stores.tasks.findById(context.taskId);
  if (task === undefined) throw new AppError('not_found', 'Your task no longer exists.');
  if (task.workspaceId !== context.workspaceId) {
    throw new AppError('permission_denied', 'This session is not bound to the workspace it calls for.');
  }
  const attached = await stores.tasks.attachedRepositories(task.id);
  if (!hasProvider(providerSetOf(attached.map((repository) => repository.provider)), provider)) {
    throw new AppError(
      'permission_denied',
      `This task has no ${name} repository attached, so ${name} ${change} automation is not available.`,
    );
  }
  if ((await stores.workspaceCredentials.find(task.workspaceId, provider)) === undefined) {
    throw new AppError(
      'failed_precondition',
      `No ${name} credentials are configured for this workspace; ask an operator to add them.`,
    );
  }
  const repositoryIds = new Set(
    attached.filter((repository) => normalizeProvider(repository.provider) === provider).map((r) => r.repositoryId),
  );
  return { taskId: task.id, workspaceId: task.workspaceId, repositoryIds };
}
