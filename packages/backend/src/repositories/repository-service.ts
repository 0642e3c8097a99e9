import { AppError } from '@kandev/protocol';
import { isUniqueViolation } from '../store/constraint-errors';
import { newId } from '../store/row-values';
import type { UnitOfWork } from '../store/unit-of-work';
import { deriveRepositoryIdentity, type RepositorySource } from './provider-identity';
import type { CreateRepositoryBody, Repository } from './repository';

export interface RepositoryServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  /** Extra self-managed GitLab hosts (lowercased). */
  gitlabHosts: readonly string[];
}

function sourceOf(body: CreateRepositoryBody): RepositorySource {
  if (body.remote_url !== undefined) return { remoteUrl: body.remote_url };
  if (body.local_path !== undefined) return { localPath: body.local_path };
  throw new AppError('invalid_argument', 'exactly one of remote_url and local_path is required');
}

function duplicate(existing: Repository): AppError {
  return new AppError('already_exists', 'this repository is already registered in the workspace', {
    existing_id: existing.id,
  });
}

export class RepositoryService {
  constructor(private readonly deps: RepositoryServiceDeps) {}

  /** Registers a repository; its provider identity is derived here, once, and stored. */
  async create(body: CreateRepositoryBody): Promise<Repository> {
    const identity = deriveRepositoryIdentity(
      { ...sourceOf(body), provider: body.provider, name: body.name },
      this.deps.gitlabHosts,
    );
    const repository: Repository = {
      id: newId(),
      workspaceId: body.workspace_id,
      ...identity,
      createdAt: this.deps.clock().toISOString(),
    };
    try {
      await this.deps.uow.transaction(async (stores) => {
        if ((await stores.workspaces.findById(repository.workspaceId)) === undefined) {
          throw new AppError('not_found', `workspace ${repository.workspaceId} not found`);
        }
        const existing = await stores.repositories.findByIdentity(repository.workspaceId, repository.identityKey);
        if (existing !== undefined) throw duplicate(existing);
        await stores.repositories.insert(repository);
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.deps.uow.read.repositories.findByIdentity(
        repository.workspaceId,
        repository.identityKey,
      );
      throw existing === undefined ? error : duplicate(existing);
    }
    return repository;
  }

  async get(id: string): Promise<Repository> {
    const repository = await this.deps.uow.read.repositories.findById(id);
    if (repository === undefined) throw new AppError('not_found', `repository ${id} not found`);
    return repository;
  }
}
