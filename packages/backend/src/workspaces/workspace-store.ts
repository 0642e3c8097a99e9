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
}
