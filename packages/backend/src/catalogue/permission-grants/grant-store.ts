import { toIsoString } from '../../platform/store/row-values';
import type { GrantKey, PermissionGrant } from './grant';
import type { Sql } from '../../platform/store/sql';

// The permission_grants table (migration 018): one row per (task, tool kind, title).

interface GrantRow {
  id: string;
  task_id: string;
  tool_kind: string;
  title: string;
  granted_by: string;
  session_id: string | null;
  created_at: unknown;
}

const TABLE = 'permission_grants';
const COLUMNS = ['id', 'task_id', 'tool_kind', 'title', 'granted_by', 'session_id', 'created_at'] as const;

function fromRow(row: GrantRow): PermissionGrant {
  return {
    id: row.id,
    taskId: row.task_id,
    toolKind: row.tool_kind,
    title: row.title,
    grantedBy: row.granted_by,
    sessionId: row.session_id,
    createdAt: toIsoString(row.created_at),
  };
}

export class PermissionGrantStore {
  constructor(private readonly db: Sql) {}

  /** Records a grant; the same key granted twice (two sessions answered at once) keeps the first row. */
  async insertIfAbsent(grant: PermissionGrant): Promise<void> {
    await this.db(TABLE)
      .insert({
        id: grant.id,
        task_id: grant.taskId,
        tool_kind: grant.toolKind,
        title: grant.title,
        granted_by: grant.grantedBy,
        session_id: grant.sessionId,
        created_at: grant.createdAt,
      })
      .onConflict(['task_id', 'tool_kind', 'title'])
      .ignore();
  }

  /** The task's grant with exactly this key (the unique index's lookup). */
  async findByKey(taskId: string, key: GrantKey): Promise<PermissionGrant | undefined> {
    const row = (await this.db(TABLE)
      .select(COLUMNS)
      .where({ task_id: taskId, tool_kind: key.toolKind, title: key.title })
      .first()) as GrantRow | undefined;
    return row === undefined ? undefined : fromRow(row);
  }

  /** The task's grants, oldest first. */
  async listByTask(taskId: string): Promise<PermissionGrant[]> {
    const rows: GrantRow[] = await this.db<GrantRow>(TABLE)
      .select([...COLUMNS])
      .where({ task_id: taskId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** True when the task had this grant. */
  async delete(taskId: string, id: string): Promise<boolean> {
    return (await this.db(TABLE).where({ task_id: taskId, id }).del()) > 0;
  }

  /** Every grant of the task (its archive); how many there were. */
  async deleteForTask(taskId: string): Promise<number> {
    return this.db(TABLE).where({ task_id: taskId }).del();
  }
}
