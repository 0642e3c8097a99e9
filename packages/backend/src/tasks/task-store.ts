import type { Knex } from 'knex';
import { AppError } from '@kandev/protocol';
import { toBoolean, toIsoString, toNullableIsoString } from '../store/row-values';
import { type Task, TaskStateSchema } from './task';

interface TaskRow {
  id: string;
  workspace_id: string;
  parent_id: string | null;
  title: string;
  state: string;
  autopilot: unknown;
  agent_profile_id: string | null;
  archived_at: unknown;
  created_at: unknown;
  updated_at: unknown;
}

/** One repository attached to a task, with the provider stored on the repository row. */
export interface AttachedRepository {
  repositoryId: string;
  provider: string | null;
}

function fromRow(row: TaskRow): Task {
  const state = TaskStateSchema.safeParse(row.state);
  if (!state.success) throw new AppError('internal', `task ${row.id} has an unknown state`);
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    parentId: row.parent_id,
    title: row.title,
    state: state.data,
    autopilot: toBoolean(row.autopilot),
    agentProfileId: row.agent_profile_id,
    archivedAt: toNullableIsoString(row.archived_at),
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

export class TaskStore {
  constructor(private readonly db: Knex) {}

  async insert(task: Task): Promise<void> {
    await this.db('tasks').insert({
      id: task.id,
      workspace_id: task.workspaceId,
      parent_id: task.parentId,
      title: task.title,
      state: task.state,
      autopilot: task.autopilot,
      agent_profile_id: task.agentProfileId,
      archived_at: task.archivedAt,
      created_at: task.createdAt,
      updated_at: task.updatedAt,
    });
  }

  async findById(id: string): Promise<Task | undefined> {
    const row = await this.db<TaskRow>('tasks').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Only the mutable fields; `autopilot` is deliberately not updatable. */
  async update(id: string, patch: { title?: string; parentId?: string | null; updatedAt: string }): Promise<void> {
    const changes: Record<string, unknown> = { updated_at: patch.updatedAt };
    if (patch.title !== undefined) changes.title = patch.title;
    if (patch.parentId !== undefined) changes.parent_id = patch.parentId;
    await this.db('tasks').where({ id }).update(changes);
  }

  /** The task and its ancestors, nearest first (one recursive query; bounded against corrupt data). */
  async lineage(id: string): Promise<string[]> {
    const rows = await this.db
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

  async attachRepositories(
    taskId: string,
    repositoryIds: readonly string[],
    batch: { batchId: string; createdAt: string },
  ): Promise<void> {
    if (repositoryIds.length === 0) return;
    await this.db('task_repositories').insert(
      repositoryIds.map((repositoryId) => ({
        task_id: taskId,
        repository_id: repositoryId,
        base_branch: null,
        batch_id: batch.batchId,
        created_at: batch.createdAt,
      })),
    );
  }

  /** Every repository attached to the task, in attach order, with its stored provider. */
  async attachedRepositories(taskId: string): Promise<AttachedRepository[]> {
    const rows: { repository_id: string; provider: string | null }[] = await this.db('task_repositories as tr')
      .join('repositories as r', 'r.id', 'tr.repository_id')
      .where('tr.task_id', taskId)
      .orderBy([{ column: 'tr.created_at' }, { column: 'tr.repository_id' }])
      .select('tr.repository_id', 'r.provider');
    return rows.map((row) => ({ repositoryId: row.repository_id, provider: row.provider }));
  }
}
