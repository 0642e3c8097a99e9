import type { Knex } from 'knex';
import { toIsoString } from '../store/row-values';
import type { Workspace } from './workspace';

interface WorkspaceRow {
  id: string;
  name: string;
  created_at: unknown;
}

function fromRow(row: WorkspaceRow): Workspace {
  return { id: row.id, name: row.name, createdAt: toIsoString(row.created_at) };
}

export class WorkspaceStore {
  constructor(private readonly db: Knex) {}

  async insert(workspace: Workspace): Promise<void> {
    await this.db('workspaces').insert({ id: workspace.id, name: workspace.name, created_at: workspace.createdAt });
  }

  async findById(id: string): Promise<Workspace | undefined> {
    const row = await this.db<WorkspaceRow>('workspaces').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Up to `limit` workspaces after position (createdAt, id) (undefined: from the start), oldest first. */
  async listAfter(after: { createdAt: string; id: string } | undefined, limit: number): Promise<Workspace[]> {
    const query = this.db<WorkspaceRow>('workspaces');
    if (after !== undefined) {
      void query.where((q) => {
        void q
          .where('created_at', '>', after.createdAt)
          .orWhere((same) => void same.where('created_at', '=', after.createdAt).where('id', '>', after.id));
      });
    }
    const rows = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(limit);
    return rows.map(fromRow);
  }
}
