import { normalizeProviderSet, type Provider } from '@kandev/protocol';

// The provider set: the one noun for "which providers a task (or a session's launch config) has".
// normalizeProviderSet stays protocol's edge primitive (wire and column parsing); inside the backend a
// set is made here, once per change, and compared and queried with the functions below.

/** Normalised: known providers only, each once, in canonical order. */
export type ProviderSet = Provider[];

/**
 * The provider set of a task: the normalised union of the stored providers of EVERY attached
 * repository. The primary (first) repository has no extra weight; local and unknown add nothing.
 */
export function providerSetOf(repositoryProviders: Iterable<string | null>): ProviderSet {
  return normalizeProviderSet(repositoryProviders);
}

/** The provider set of these attached repositories, and their ids (in the order given: attach order). */
export function attachedSetOf(attached: readonly { repositoryId: string; provider: string | null }[]): AttachedSet {
  return {
    providers: providerSetOf(attached.map((a) => a.provider)),
    repositoryIds: attached.map((a) => a.repositoryId),
  };
}

export interface AttachedSet {
  providers: ProviderSet;
  repositoryIds: string[];
}

/** Two normalised sets are the same set exactly when they list the same providers in order. */
export function sameProviderSet(a: readonly Provider[], b: readonly Provider[]): boolean {
  return a.length === b.length && a.every((provider, i) => provider === b[i]);
}

/**
 * Whether the set has the provider. The backend's provider check for a provider tool call (GitHub PR
 * or GitLab MR automation) asks this of the task's COMMITTED set, the union over the repositories
 * attached to the task as the database holds them at call time. What agentctl lists is discovery, not
 * permission: a session whose removal agentctl has not acknowledged yet may still list the tool, and
 * the call is refused. Callers pass a set read per call (`attachedSetOf` over
 * `TaskStore.attachedRepositories`), never a cached or agentctl-reported one.
 */
export function hasProvider(set: readonly Provider[], provider: Provider): boolean {
  return set.includes(provider);
}
