import { type CreationPosition, inCreationOrder } from '../../platform/store/creation-order';
import { normalizeProvider } from '@kandev/protocol';
import { columnsOf, toIsoString } from '../../platform/store/row-values';
import { sendWrite } from '../../platform/store/driver/store-transaction';
import type { SourceType } from './provider-identity';
import type { Repository } from './repository';
import type { Sql } from '../../platform/store/sql';

interface RepositoryRow {
  id: string;
  workspace_id: string;
  source_type: string;
  provider: string | null;
  provider_host: string | null;
  owner: string | null;
  name: string;
  remote_url: string | null;
  local_path: string | null;
  identity_key: string;
  created_at: unknown;
}

const REPOSITORY_COLUMNS = columnsOf<RepositoryRow>({
  id: true,
  workspace_id: true,
  source_type: true,
  provider: true,
  provider_host: true,
  owner: true,
  name: true,
  remote_url: true,
  local_path: true,
  identity_key: true,
  created_at: true,
});

function fromRow(row: RepositoryRow): Repository {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sourceType: (row.source_type === 'local' ? 'local' : 'remote') satisfies SourceType,
    // Stored once at registration; read back as stored (normalising only guards against hand edits).
    provider: normalizeProvider(row.provider),
    providerHost: row.provider_host,
    owner: row.owner,
    name: row.name,
    remoteUrl: row.remote_url,
    localPath: row.local_path,
    identityKey: row.identity_key,
    createdAt: toIsoString(row.created_at),
  };
}

function toRow(repository: Repository): RepositoryRow {
  return {
    id: repository.id,
    workspace_id: repository.workspaceId,
    source_type: repository.sourceType,
    provider: repository.provider,
    provider_host: repository.providerHost,
    owner: repository.owner,
    name: repository.name,
    remote_url: repository.remoteUrl,
    local_path: repository.localPath,
    identity_key: repository.identityKey,
    created_at: repository.createdAt,
  };
}

export class RepositoryStore {
  constructor(private readonly db: Sql) {}

  /** A read of whole rows, naming every column (so on PostgreSQL it may run as a named statement). */
  private rows() {
    return this.db<RepositoryRow>('repositories').select(REPOSITORY_COLUMNS);
  }

  /** Sent in a unit of work (`sendWrite`): a duplicate identity fails its transaction. */
  async insert(repository: Repository): Promise<void> {
    await sendWrite(this.db, this.db('repositories').insert(toRow(repository)));
  }

  /**
   * Inserts the repository unless its workspace already holds its identity (then nothing): the unique
   * workspace_id + identity_key decides (ON CONFLICT DO NOTHING), so it holds with concurrent writers
   * on PostgreSQL, not only under SQLite's single writer. Sent in a unit of work: a read after it (which
   * row holds the identity) travels with it.
   */
  async insertIfAbsent(repository: Repository): Promise<void> {
    await sendWrite(
      this.db,
      this.db('repositories').insert(toRow(repository)).onConflict(['workspace_id', 'identity_key']).ignore(),
    );
  }

  async findById(id: string): Promise<Repository | undefined> {
    const row = await this.rows().where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  async findByIdentity(workspaceId: string, identityKey: string): Promise<Repository | undefined> {
    const row = await this.rows().where({ workspace_id: workspaceId, identity_key: identityKey }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** The repositories with these identities in the workspace of task `taskId` (none if it has none). */
  async findByIdentitiesOfTask(taskId: string, identityKeys: readonly string[]): Promise<Repository[]> {
    if (identityKeys.length === 0) return [];
    const rows = await this.rows()
      .whereIn('identity_key', [...identityKeys])
      .andWhere('workspace_id', this.db('tasks').select('workspace_id').where({ id: taskId }));
    return rows.map(fromRow);
  }

  async findByIds(ids: readonly string[]): Promise<Repository[]> {
    if (ids.length === 0) return [];
    const rows = await this.rows().whereIn('id', [...ids]);
    return rows.map(fromRow);
  }

  /** The workspace's repositories, by name. */
  async listByWorkspace(workspaceId: string): Promise<Repository[]> {
    const rows = await this.rows()
      .where({ workspace_id: workspaceId })
      .orderBy([{ column: 'name' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** Up to `limit` repositories (of one workspace, when given) after `after`, in creation order. */
  async listAfter(filter: {
    workspaceId?: string;
    workspaceIds?: readonly string[];
    after?: CreationPosition;
    limit: number;
  }): Promise<Repository[]> {
    const query = this.rows();
    if (filter.workspaceId !== undefined) void query.where({ workspace_id: filter.workspaceId });
    if (filter.workspaceIds !== undefined) void query.whereIn('workspace_id', [...filter.workspaceIds]);
    const rows = await inCreationOrder(query, filter.after, filter.limit);
    return rows.map(fromRow);
  }
}
