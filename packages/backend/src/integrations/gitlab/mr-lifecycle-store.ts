import type { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { type MrState, MrStateSchema } from '../provider-automation/review-link';
import { toBoolean } from '../../platform/store/row-values';
import {
  checkpointOf,
  claimEvaluation,
  type LastEvaluation,
  LIFECYCLE_COLUMNS,
  LinkLifecycleSchema,
  lifecycleOf,
  recordObservation,
  recordPollError,
} from '../review-lifecycle/lifecycle-columns';
import type { Checkpoint, PromptSwitches } from '../review-lifecycle/lifecycle-rules';
import type { Sql } from '../../platform/store/sql';

// Targeted reads and writes of task_mrs for the lifecycle poller and evaluator: only the columns each
// step needs (no task-wide scans, no reviewer lists: those are not stored).

/** A link the poller reads: its task has at least one lifecycle prompt switch on and is not archived. */
export interface PollTarget {
  linkId: string;
  taskId: string;
  workspaceId: string;
  repositoryId: string;
  projectPath: string;
  iid: number;
}

export interface EvaluationRecord extends PollTarget {
  switches: PromptSwitches;
  checkpoint: Checkpoint | null;
  /** The evaluation this record was read at: saving one is a compare-and-set on it (replicas). */
  version: number;
}

/** GET /api/tasks/:id/mrs/:mrId/lifecycle */
export const MrLifecycleViewSchema = LinkLifecycleSchema.extend({ state: MrStateSchema })
  .strict()
  .meta({ id: 'MrLifecycle' });
export type LifecycleView = z.output<typeof MrLifecycleViewSchema>;

const TARGET_COLUMNS = [
  'task_mrs.id as link_id',
  'task_mrs.task_id',
  'tasks.workspace_id',
  'task_mrs.repository_id',
  'task_mrs.project_path',
  'task_mrs.iid',
] as const;

interface TargetRow {
  link_id: string;
  task_id: string;
  workspace_id: string;
  repository_id: string;
  project_path: string;
  iid: number | string;
}

function targetFromRow(row: TargetRow): PollTarget {
  return {
    linkId: row.link_id,
    taskId: row.task_id,
    workspaceId: row.workspace_id,
    repositoryId: row.repository_id,
    projectPath: row.project_path,
    iid: Number(row.iid),
  };
}

export class MrLifecycleStore {
  constructor(private readonly db: Sql) {}

  private targets() {
    return this.db('task_mrs').join('tasks', 'tasks.id', 'task_mrs.task_id');
  }

  async listPollable(): Promise<PollTarget[]> {
    const rows = await this.targets()
      .whereNull('tasks.archived_at')
      .where((q) => {
        void q
          .where('task_mrs.prompt_on_review_requested', true)
          .orWhere('task_mrs.prompt_on_merged', true)
          .orWhere('task_mrs.prompt_on_closed', true);
      })
      .orderBy('task_mrs.id')
      .select<TargetRow[]>(...TARGET_COLUMNS);
    return rows.map(targetFromRow);
  }

  async findTarget(linkId: string): Promise<PollTarget | undefined> {
    const row = await this.targets()
      .where('task_mrs.id', linkId)
      .first<TargetRow | undefined>(...TARGET_COLUMNS);
    return row === undefined ? undefined : targetFromRow(row);
  }

  /** The link's switches and checkpoint, and nothing else of it. */
  async loadForEvaluation(linkId: string): Promise<EvaluationRecord | undefined> {
    const row = await this.targets()
      .where('task_mrs.id', linkId)
      .first<(TargetRow & Record<string, unknown>) | undefined>(
        ...TARGET_COLUMNS,
        'task_mrs.prompt_on_review_requested',
        'task_mrs.prompt_on_merged',
        'task_mrs.prompt_on_closed',
        'task_mrs.lifecycle_checkpoint',
        'task_mrs.lifecycle_version',
      );
    if (row === undefined) return undefined;
    return {
      ...targetFromRow(row),
      switches: {
        prompt_on_review_requested: toBoolean(row.prompt_on_review_requested),
        prompt_on_merged: toBoolean(row.prompt_on_merged),
        prompt_on_closed: toBoolean(row.prompt_on_closed),
      },
      checkpoint: checkpointOf(row.lifecycle_checkpoint),
      version: Number(row.lifecycle_version),
    };
  }

  /** What a poll read: the link's state and head move; the poll error clears. */
  recordObservation(linkId: string, observed: { state: MrState; headSha: string | null }, now: string) {
    return recordObservation(this.db, 'task_mrs', linkId, observed, now);
  }

  recordPollError(linkId: string, message: string, now: string): Promise<void> {
    return recordPollError(this.db, 'task_mrs', linkId, message, now);
  }

  async saveEvaluation(linkId: string, checkpoint: Checkpoint | null, evaluation: LastEvaluation): Promise<void> {
    const update: Record<string, string> = { last_evaluation: JSON.stringify(evaluation) };
    if (checkpoint !== null) update.lifecycle_checkpoint = JSON.stringify(checkpoint);
    await this.db('task_mrs').where({ id: linkId }).update(update);
  }

  /** Compare-and-set on the lifecycle version (lifecycle-columns' claimEvaluation). */
  claimEvaluation(linkId: string, version: number): Promise<boolean> {
    return claimEvaluation(this.db, 'task_mrs', linkId, version);
  }

  async view(taskId: string, linkId: string): Promise<LifecycleView | undefined> {
    const row = await this.db('task_mrs')
      .where({ id: linkId, task_id: taskId })
      .first<Record<string, unknown> | undefined>(...LIFECYCLE_COLUMNS);
    if (row === undefined) return undefined;
    const state = MrStateSchema.safeParse(row.state);
    if (!state.success) throw new AppError('internal', `task_mrs ${linkId} has an unknown state`);
    return { state: state.data, ...lifecycleOf(row, 'task_mrs') };
  }
}
