import { normalizeProviderSet, type Provider } from '@kandev/protocol';

/**
 * The provider set of a task: the normalised union of the stored providers of EVERY attached
 * repository. The primary (first) repository has no extra weight; local and unknown add nothing.
 */
export function taskProviders(repositoryProviders: Iterable<string | null>): Provider[] {
  return normalizeProviderSet(repositoryProviders);
}
