import { type CreationPosition, inCreationOrder } from '../../platform/store/creation-order';
import { toIsoString } from '../../platform/store/row-values';
import type { Workspace } from './workspace';
import type { Sql } from '../../platform/store/sql';

interface WorkspaceRow {
  id: string;
  name: string;
  created_at: unknown;
}

function fromRow(row: WorkspaceRow): Workspace {
  return { id: row.id, name: row.name, createdAt: toIsoString(row.created_at) };
}

export class WorkspaceStore {
  constructor(private readonly db: Sql) {}

  async insert(workspace: Workspace): Promise<void> {
    await this.db('workspaces').insert({ id: workspace.id, name: workspace.name, created_at: workspace.createdAt });
  }

  async findById(id: string): Promise<Workspace | undefined> {
    const row = await this.db<WorkspaceRow>('workspaces').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Up to `limit` workspaces after position (createdAt, id) (undefined: from the start), oldest first. */
  async listAfter(after: CreationPosition | undefined, limit: number, ids?: readonly string[]): Promise<Workspace[]> {
    const query = this.db<WorkspaceRow>('workspaces');
    if (ids !== undefined) void query.whereIn('id', [...ids]);
    const rows = await inCreationOrder(query, after, limit);
    return rows.map(fromRow);
  }
}
