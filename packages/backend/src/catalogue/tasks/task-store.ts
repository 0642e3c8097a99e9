import { AppError } from '@kandev/protocol';
import { columnsOf, toBoolean, toIsoString, toNullableIsoString } from '../../platform/store/row-values';
import { type TaskState, TaskStateSchema } from '@kandev/protocol';
import type { Task, TaskAttachment } from './task';
import { containsPattern, type TaskListFilter } from './task-list';
import { sendWrite } from '../../platform/store/driver/store-transaction';
import type { Sql } from '../../platform/store/sql';

interface TaskRow {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  state: string;
  autopilot: unknown;
  agent_profile_id: string | null;
  archived_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const TASK_COLUMNS = columnsOf<TaskRow>({
  id: true,
  workspace_id: true,
  parent_id: true,
  title: true,
  description: true,
  state: true,
  autopilot: true,
  agent_profile_id: true,
  archived_at: true,
  created_at: true,
  updated_at: true,
});

export interface TaskPatch {
  title?: string;
  parentId?: string | null;
  description?: string | null;
  state?: TaskState;
  updatedAt: string;
}

/** One repository attached to a task, with the provider (and checkout) stored on the repository row. */
export interface AttachedRepository {
  repositoryId: string;
  provider: string | null;
  /** The local checkout, when the repository has one. */
  localPath: string | null;
  baseBranch: string | null;
  /** When its batch attached it (ISO 8601): attach order is this, then the repository id. */
  attachedAt: string;
}

/** `attached` in attach order, as `attachedRepositories` reads it (for a set the caller changed in memory). */
export function inAttachOrder<T extends Pick<AttachedRepository, 'repositoryId' | 'attachedAt'>>(
  attached: readonly T[],
): T[] {
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...attached].sort((a, b) => compare(a.attachedAt, b.attachedAt) || compare(a.repositoryId, b.repositoryId));
}

interface AttachedRow {
  repository_id: string;
  provider: string | null;
  local_path: string | null;
  base_branch: string | null;
  created_at: unknown;
}

function fromRow(row: TaskRow): Task {
  const state = TaskStateSchema.safeParse(row.state);
  if (!state.success) throw new AppError('internal', `task ${row.id} has an unknown state`);
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    parentId: row.parent_id,
    title: row.title,
    // Absent rather than null when unset, so a task without one reads back as it was written.
    ...(row.description === null ? {} : { description: row.description }),
    state: state.data,
    autopilot: toBoolean(row.autopilot),
    agentProfileId: row.agent_profile_id,
    archivedAt: toNullableIsoString(row.archived_at),
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

export class TaskStore {
  constructor(private readonly db: Sql) {}

  /** A read of whole rows, naming every column (so on PostgreSQL it may run as a named statement). */
  private rows() {
    return this.db<TaskRow>('tasks').select(TASK_COLUMNS);
  }

  async insert(task: Task): Promise<void> {
    await this.insertMany([task]);
  }

  /** Many tasks in multi-row inserts, 500 a statement (seeding a database for a load test). */
  async insertMany(tasks: readonly Task[]): Promise<void> {
    for (let i = 0; i < tasks.length; i += 500) {
      await this.db('tasks').insert(
        tasks.slice(i, i + 500).map((task) => ({
          id: task.id,
          workspace_id: task.workspaceId,
          parent_id: task.parentId,
          title: task.title,
          description: task.description ?? null,
          state: task.state,
          autopilot: task.autopilot,
          agent_profile_id: task.agentProfileId,
          archived_at: task.archivedAt,
          created_at: task.createdAt,
          updated_at: task.updatedAt,
        })),
      );
    }
  }

  async findById(id: string): Promise<Task | undefined> {
    const row = await this.rows().where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Only the mutable fields; `autopilot` is deliberately not updatable. */
  async update(id: string, patch: TaskPatch): Promise<void> {
    const changes: Record<string, unknown> = { updated_at: patch.updatedAt };
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.parentId !== undefined) changes.parent_id = patch.parentId;
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.state !== undefined) changes.state = patch.state;
    await sendWrite(this.db, this.db('tasks').where({ id }).update(changes));
  }

  /** Archives the task once (an archived task keeps its first archived_at); false when nothing changed. */
  async archive(id: string, now: string): Promise<boolean> {
    const changed = await this.db('tasks')
      .where({ id })
      .whereNull('archived_at')
      .update({ archived_at: now, updated_at: now });
    return changed > 0;
  }

  /** Clears archived_at; false when the task was not archived. */
  async unarchive(id: string, now: string): Promise<boolean> {
    const changed = await this.db('tasks')
      .where({ id })
      .whereNotNull('archived_at')
      .update({ archived_at: null, updated_at: now });
    return changed > 0;
  }

  /**
   * One page of a workspace's tasks in the filter's order (ties by id, the same direction), strictly
   * after `after`. Each filter is an indexed column or an EXISTS on an indexed child table.
   */
  async list(filter: TaskListFilter): Promise<Task[]> {
    const query = this.rows().where({ workspace_id: filter.workspaceId });
    if (filter.parentId !== undefined) void query.where({ parent_id: filter.parentId });
    if (filter.states !== undefined) void query.whereIn('state', [...filter.states]);
    if (!filter.includeArchived) void query.whereNull('archived_at');
    if (filter.autopilot !== undefined) void query.where({ autopilot: filter.autopilot });
    if (filter.titleContains !== undefined) {
      void query.whereRaw("lower(title) like ? escape '\\'", [containsPattern(filter.titleContains)]);
    }
    if (filter.provider !== undefined) void query.whereExists(this.withProvider(filter.provider));
    if (filter.pendingQuestion !== undefined) {
      void query.where((q) => {
        const pending = (sub: typeof q) =>
          void sub.whereExists(this.pendingOperatorQuestion(filter.now)).orWhereExists(this.pendingParentQuestion());
        if (filter.pendingQuestion === true) pending(q);
        else void q.whereNot(pending);
      });
    }
    if (filter.failed === true) void query.whereExists(this.newestSessionFailed());
    if (filter.failed === false) void query.whereNotExists(this.newestSessionFailed());
    const column = filter.sort.startsWith('created') ? 'created_at' : 'updated_at';
    const order = filter.sort.endsWith('desc') ? 'desc' : 'asc';
    const beyond = order === 'desc' ? '<' : '>';
    const after = filter.after;
    if (after !== undefined) {
      void query.where((q) => {
        void q
          .where(column, beyond, after.at)
          .orWhere((same) => void same.where(column, '=', after.at).where('id', beyond, after.id));
      });
    }
    const rows = await query
      .orderBy([
        { column, order },
        { column: 'id', order },
      ])
      .limit(filter.limit);
    return rows.map(fromRow);
  }

  private withProvider(provider: string) {
    return this.db('task_repositories as tr')
      .join('repositories as r', 'r.id', 'tr.repository_id')
      .where('tr.task_id', this.db.ref('tasks.id'))
      .where('r.provider', provider)
      .select(this.db.raw('1'));
  }

  /** The rows runtime/parent-questions/pending-action.ts reads: pending and unexpired. */
  private pendingOperatorQuestion(now: string) {
    return this.db('questions as q')
      .where('q.task_id', this.db.ref('tasks.id'))
      .where('q.state', 'pending')
      .where('q.expires_at', '>', now)
      .select(this.db.raw('1'));
  }

  private pendingParentQuestion() {
    return this.db('parent_questions as pq')
      .where('pq.child_task_id', this.db.ref('tasks.id'))
      .where('pq.status', 'pending')
      .select(this.db.raw('1'));
  }

  /** The task's newest session (creation order, ties by id) is failed. */
  private newestSessionFailed() {
    // The newest: the first entry of the (task_id, created_at, id) index read backwards, one probe per
    // task (an anti-join against later sessions scanned every session on PostgreSQL).
    const newest = this.db('sessions as later')
      .select('later.id')
      .where('later.task_id', this.db.ref('tasks.id'))
      .orderBy([
        { column: 'later.created_at', order: 'desc' },
        { column: 'later.id', order: 'desc' },
      ])
      .limit(1);
    return this.db('sessions as s').where('s.id', newest).where('s.state', 'failed').select(this.db.raw('1'));
  }

  /** The task and its ancestors, nearest first (one recursive query; bounded against corrupt data). */
  async lineage(id: string): Promise<string[]> {
    const rows = await this.db
      .queryBuilder()
      .withRecursive('lineage', ['id', 'parent_id', 'depth'], (qb) => {
        void qb
          .select('id', 'parent_id', this.db.raw('0'))
          .from('tasks')
          .where('id', id)
          .unionAll((up) => {
            void up
              .select('t.id', 't.parent_id', this.db.raw('l.depth + 1'))
              .from('tasks as t')
              .join('lineage as l', 't.id', 'l.parent_id')
              .where('l.depth', '<', 10_000);
          });
      })
      .select<{ id: string }[]>('id')
      .from('lineage')
      .orderBy('depth');
    return rows.map((row) => row.id);
  }

  /** Attaches repositories to the task as one batch (one batch id, one timestamp). */
  async attachRepositories(
    taskId: string,
    attachments: readonly TaskAttachment[],
    batch: { batchId: string; createdAt: string },
  ): Promise<void> {
    if (attachments.length === 0) return;
    const rows = attachments.map((attachment) => ({
      task_id: taskId,
      repository_id: attachment.repositoryId,
      base_branch: attachment.baseBranch,
      batch_id: batch.batchId,
      created_at: batch.createdAt,
    }));
    await sendWrite(this.db, this.db('task_repositories').insert(rows));
  }

  /** The task's attachment rows alone (no join), in attach order. */
  async attachments(taskId: string): Promise<TaskAttachment[]> {
    const rows: { repository_id: string; base_branch: string | null }[] = await this.db('task_repositories')
      .where({ task_id: taskId })
      .orderBy([{ column: 'created_at' }, { column: 'repository_id' }])
      .select('repository_id', 'base_branch');
    return rows.map((row) => ({ repositoryId: row.repository_id, baseBranch: row.base_branch }));
  }

  /** Sent in a unit of work (`sendWrite`): the caller read that the repository is attached. */
  async detachRepository(taskId: string, repositoryId: string): Promise<void> {
    await sendWrite(
      this.db,
      this.db('task_repositories').where({ task_id: taskId, repository_id: repositoryId }).del(),
    );
  }

  /** Every repository attached to the task, in attach order (the first is the primary), in ONE query. */
  async attachedRepositories(taskId: string): Promise<AttachedRepository[]> {
    return (await this.attachedRepositoriesOf([taskId])).get(taskId) ?? [];
  }

  /** Each task's attached repositories in attach order, for a page of tasks in ONE query. */
  async attachedRepositoriesOf(taskIds: readonly string[]): Promise<Map<string, AttachedRepository[]>> {
    const byTask = new Map<string, AttachedRepository[]>(taskIds.map((id) => [id, []]));
    if (taskIds.length === 0) return byTask;
    const rows: (AttachedRow & { task_id: string })[] = await this.db('task_repositories as tr')
      .join('repositories as r', 'r.id', 'tr.repository_id')
      .whereIn('tr.task_id', [...taskIds])
      .orderBy([{ column: 'tr.created_at' }, { column: 'tr.repository_id' }])
      .select('tr.task_id', 'tr.repository_id', 'r.provider', 'r.local_path', 'tr.base_branch', 'tr.created_at');
    for (const row of rows) {
      byTask.get(row.task_id)?.push({
        repositoryId: row.repository_id,
        provider: row.provider,
        localPath: row.local_path,
        baseBranch: row.base_branch,
        attachedAt: toIsoString(row.created_at),
      });
    }
    return byTask;
  }
}
