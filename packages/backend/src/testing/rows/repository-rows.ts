// A repository row as store-level tests seed it: a remote repository of `acme` on its provider's public
// host (github unless `overrides.provider` says otherwise). Overrides name only what a test is about.
import type { Repository } from '../../catalogue/repositories/repository';

export function repositoryRow(
  id: string,
  workspaceId: string,
  at: string,
  overrides: Partial<Repository> = {},
): Repository {
  const host = `${overrides.provider ?? 'github'}.com`;
  return {
    id,
    workspaceId,
    sourceType: 'remote',
    provider: 'github',
    providerHost: host,
    owner: 'acme',
    name: id,
    remoteUrl: `https://${host}/acme/${id}`,
    localPath: null,
    identityKey: `${host}/acme/${id}`,
    createdAt: at,
    ...overrides,
  };
}
