import type { Provider } from '@kandev/protocol';
import { taskProviders } from './provider-set';

/**
 * The backend's provider check for a provider tool call (GitHub PR or GitLab MR automation): allowed
 * only when the provider is in the task's COMMITTED set, the union over the repositories attached to
 * the task as the database holds them at call time. What agentctl lists is discovery, not permission:
 * a session whose removal agentctl has not acknowledged yet may still list the tool, and the call is
 * refused here. Callers pass the stored providers of the attached repositories, read per call
 * (`TaskStore.attachedRepositories`), never a cached or agentctl-reported set.
 */
export function canCallProviderTool(
  committedRepositoryProviders: Iterable<string | null>,
  provider: Provider,
): boolean {
  return taskProviders(committedRepositoryProviders).includes(provider);
}
