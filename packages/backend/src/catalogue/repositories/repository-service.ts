import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { DEFAULT_PAGE_LIMIT, decodeCursor, type Page, pageOf } from '../../platform/store/page-cursor';
import { isUniqueViolation } from '../../platform/store/constraint-errors';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import { assertDirectoryOrAbsent } from './local-directory';
import { deriveRepositoryIdentity, type RepositoryIdentity, type RepositorySource } from './provider-identity';
import type { CreateRepositoryBody, ListRepositoriesQuery, Repository } from './repository';

/** A repository cursor holds the position (created_at, id) of the last repository read. */
const RepositoryCursorSchema = z.object({ c: z.string().min(1).max(64), i: z.string().min(1).max(128) }).strict();

export interface RepositoryServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  /** Extra self-managed GitLab hosts (lowercased). */
  gitlabHosts: readonly string[];
}

/** A source as a caller names it; provider and name are optional hints. */
export type RepositorySourceInput = RepositorySource & { provider?: string | null; name?: string };

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

  /** Every way a repository enters a workspace goes through here: its provider is derived once. */
  deriveIdentity(source: RepositorySourceInput): RepositoryIdentity {
    const identity = deriveRepositoryIdentity(source, this.deps.gitlabHosts);
    if (identity.localPath !== null) assertDirectoryOrAbsent(identity.localPath);
    return identity;
  }

  /**
   * Inside the caller's unit of work, which read that the workspace holds no repository with this
   * identity: the new repository. Every registration runs in a unit of work, under its event-order
   * lock, so none can come in between; if one ever did, the insert's unique violation fails the
   * transaction.
   */
  async registerNew(stores: Stores, workspaceId: string, identity: RepositoryIdentity): Promise<Repository> {
    const repository = this.newRepository(workspaceId, identity);
    await stores.repositories.insert(repository);
    return repository;
  }

  /** Inside the caller's transaction: the workspace's repository with this identity, registered when new. */
  async findOrRegister(
    stores: Stores,
    workspaceId: string,
    identity: RepositoryIdentity,
  ): Promise<{ repository: Repository; registered: boolean }> {
    const repository = this.newRepository(workspaceId, identity);
    // The insert does nothing when the identity is registered already, by an earlier or a concurrent
    // transaction; the read answers whichever row holds it.
    await stores.repositories.insertIfAbsent(repository);
    const stored = await stores.repositories.findByIdentity(workspaceId, identity.identityKey);
    if (stored === undefined) throw new Error(`repository ${identity.identityKey} vanished after its insert`);
    return { repository: stored, registered: stored.id === repository.id };
  }

  private newRepository(workspaceId: string, identity: RepositoryIdentity): Repository {
    return { id: newId(), workspaceId, ...identity, createdAt: this.deps.clock().toISOString() };
  }

  /** Registers a repository; an identity already registered in the workspace is a conflict. */
  async create(body: CreateRepositoryBody): Promise<Repository> {
    const identity = this.deriveIdentity({ ...sourceOf(body), provider: body.provider, name: body.name });
    try {
      return await this.deps.uow.transaction(async (stores) => {
        if ((await stores.workspaces.findById(body.workspace_id)) === undefined) {
          throw new AppError('not_found', `workspace ${body.workspace_id} not found`);
        }
        const { repository, registered } = await this.findOrRegister(stores, body.workspace_id, identity);
        if (!registered) throw duplicate(repository);
        // Ids and names only: a remote URL may carry credentials.
        const { id, workspaceId, provider, owner, name } = repository;
        await stores.events.append({
          type: 'repository.created',
          taskId: null,
          sessionId: null,
          workspaceId,
          data: { repository: { id, workspace_id: workspaceId, provider, owner, name } },
          at: repository.createdAt,
        });
        return repository;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.deps.uow.read.repositories.findByIdentity(body.workspace_id, identity.identityKey);
      throw existing === undefined ? error : duplicate(existing);
    }
  }

  async get(id: string): Promise<Repository> {
    const repository = await this.deps.uow.read.repositories.findById(id);
    if (repository === undefined) throw new AppError('not_found', `repository ${id} not found`);
    return repository;
  }

  /** One page of repositories, oldest first; a workspace filter only narrows (an unknown one lists none). */
  async list(query: ListRepositoriesQuery, workspaceIds: readonly string[] | null = null): Promise<Page<Repository>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const after = query.cursor === undefined ? undefined : decodeCursor(RepositoryCursorSchema, query.cursor);
    const rows = await this.deps.uow.read.repositories.listAfter({
      workspaceId: query.workspace_id,
      workspaceIds: workspaceIds ?? undefined,
      after: after === undefined ? undefined : { createdAt: after.c, id: after.i },
      limit: limit + 1,
    });
    return pageOf(rows, limit, (row) => ({ c: row.createdAt, i: row.id }));
  }
}
