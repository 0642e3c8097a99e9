import type { Sql } from '../../platform/store/sql';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseJsonColumn, toBoolean, toIsoString } from '../../platform/store/row-values';
import {
  AUTOMATION_OPTIONS,
  type AutomationOption,
  type AutomationOptions,
  type AutomationPatch,
  MrStateSchema,
  PrStateSchema,
  type TaskMr,
  type TaskPr,
} from './review-link';

/** Option names (as the tools spell them) to their columns. */
const OPTION_COLUMNS: Record<AutomationOption, string> = {
  auto_fix_enabled: 'auto_fix',
  auto_merge_enabled: 'auto_merge',
  prompt_on_review_requested: 'prompt_on_review_requested',
  prompt_on_merged: 'prompt_on_merged',
  prompt_on_closed: 'prompt_on_closed',
};

interface LinkRow extends Record<string, unknown> {
  id: string;
  task_id: string;
  repository_id: string;
  state: string;
  head_sha: string | null;
  created_at: unknown;
  updated_at: unknown;
}

interface PrRow extends LinkRow {
  number: number;
}

interface MrRow extends LinkRow {
  project_path: string;
  iid: number;
  lifecycle_checkpoint: unknown;
}

const CheckpointSchema = z.record(z.string(), z.unknown()).nullable();

function optionsFromRow(row: Record<string, unknown>): AutomationOptions {
  const options = {} as AutomationOptions;
  for (const option of AUTOMATION_OPTIONS) options[option] = toBoolean(row[OPTION_COLUMNS[option]]);
  return options;
}

/** Only the switches present in the patch become column updates. */
export function optionColumns(patch: AutomationPatch): Record<string, boolean> {
  const columns: Record<string, boolean> = {};
  for (const option of AUTOMATION_OPTIONS) {
    const value = patch[option];
    if (value !== undefined) columns[OPTION_COLUMNS[option]] = value;
  }
  return columns;
}

function baseFromRow(row: LinkRow) {
  return {
    id: row.id,
    taskId: row.task_id,
    repositoryId: row.repository_id,
    headSha: row.head_sha,
    options: optionsFromRow(row),
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

function baseToRow(link: TaskPr | TaskMr): LinkRow {
  return {
    id: link.id,
    task_id: link.taskId,
    repository_id: link.repositoryId,
    state: link.state,
    head_sha: link.headSha,
    ...optionColumns(link.options),
    created_at: link.createdAt,
    updated_at: link.updatedAt,
  };
}

function prFromRow(row: PrRow): TaskPr {
  const state = PrStateSchema.safeParse(row.state);
  if (!state.success) throw new AppError('internal', `task_prs ${row.id} has an unknown state`);
  return { ...baseFromRow(row), number: Number(row.number), state: state.data };
}

function mrFromRow(row: MrRow): TaskMr {
  const state = MrStateSchema.safeParse(row.state);
  if (!state.success) throw new AppError('internal', `task_mrs ${row.id} has an unknown state`);
  const checkpoint =
    row.lifecycle_checkpoint === null
      ? null
      : parseJsonColumn(CheckpointSchema, row.lifecycle_checkpoint, 'task_mrs.lifecycle_checkpoint');
  return {
    ...baseFromRow(row),
    projectPath: row.project_path,
    iid: Number(row.iid),
    state: state.data,
    lifecycleCheckpoint: checkpoint,
  };
}

/** The switches of the given links (of one table) change together, with one timestamp. */
async function updateOptions(
  db: Sql,
  table: string,
  ids: readonly string[],
  patch: AutomationPatch,
  updatedAt: string,
): Promise<number> {
  const columns = optionColumns(patch);
  if (ids.length === 0 || Object.keys(columns).length === 0) return 0;
  return db(table)
    .whereIn('id', [...ids])
    .update({ ...columns, updated_at: updatedAt });
}

export class TaskPrStore {
  constructor(private readonly db: Sql) {}

  async insert(pr: TaskPr): Promise<void> {
    await this.db('task_prs').insert({ ...baseToRow(pr), number: pr.number });
  }

  /** The task's PRs in link order. */
  async listByTask(taskId: string): Promise<TaskPr[]> {
    const rows = await this.db<PrRow>('task_prs')
      .where({ task_id: taskId })
      .orderBy([{ column: 'created_at' }, { column: 'repository_id' }, { column: 'number' }]);
    return rows.map(prFromRow);
  }

  async find(taskId: string, repositoryId: string, number: number): Promise<TaskPr | undefined> {
    const row = await this.db<PrRow>('task_prs')
      .where({ task_id: taskId, repository_id: repositoryId, number })
      .first();
    return row === undefined ? undefined : prFromRow(row);
  }

  updateOptions(ids: readonly string[], patch: AutomationPatch, updatedAt: string): Promise<number> {
    return updateOptions(this.db, 'task_prs', ids, patch, updatedAt);
  }
}

export class TaskMrStore {
  constructor(private readonly db: Sql) {}

  async insert(mr: TaskMr): Promise<void> {
    await this.db('task_mrs').insert({
      ...baseToRow(mr),
      project_path: mr.projectPath,
      iid: mr.iid,
      lifecycle_checkpoint: mr.lifecycleCheckpoint === null ? null : JSON.stringify(mr.lifecycleCheckpoint),
    });
  }

  /** The task's MRs in link order. */
  async listByTask(taskId: string): Promise<TaskMr[]> {
    const rows = await this.db<MrRow>('task_mrs')
      .where({ task_id: taskId })
      .orderBy([{ column: 'created_at' }, { column: 'repository_id' }, { column: 'iid' }]);
    return rows.map(mrFromRow);
  }

  async find(taskId: string, repositoryId: string, iid: number): Promise<TaskMr | undefined> {
    const row = await this.db<MrRow>('task_mrs').where({ task_id: taskId, repository_id: repositoryId, iid }).first();
    return row === undefined ? undefined : mrFromRow(row);
  }

  updateOptions(ids: readonly string[], patch: AutomationPatch, updatedAt: string): Promise<number> {
    return updateOptions(this.db, 'task_mrs', ids, patch, updatedAt);
  }
}
