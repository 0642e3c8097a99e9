import type { z } from 'zod';
import { AppError } from '@kandev/protocol';
import type { Checkpoint } from '../review-lifecycle/lifecycle-rules';
import {
  checkpointOf,
  type LastEvaluation,
  LIFECYCLE_COLUMNS,
  lifecycleOf,
  claimEvaluation,
  LinkLifecycleSchema,
  recordObservation,
  recordPollError,
} from '../review-lifecycle/lifecycle-columns';
import { type AutomationOptions, type PrState, PrStateSchema } from '../provider-automation/review-link';
import { parseJsonColumn, toBoolean } from '../../platform/store/row-values';
import { type MergeOutcome, MergeOutcomeSchema } from './pr-rules';
import type { Sql } from '../../platform/store/sql';

// Targeted reads and writes of task_prs for the PR poller and evaluator (migration 014). The owner and
// repository name come from the linked repository's identity (derived from its remote URL).

/** A PR link the poller reads: its task is not archived and one of its switches is on. */
export interface PrPollTarget {
  linkId: string;
  taskId: string;
  workspaceId: string;
  repositoryId: string;
  owner: string;
  repo: string;
  number: number;
  /** Whether reviews and check runs must be read too (auto-fix or auto-merge is on). */
  readChecks: boolean;
}

export interface PrEvaluationRecord extends PrPollTarget {
  switches: AutomationOptions;
  checkpoint: Checkpoint | null;
  merge: MergeOutcome | null;
  /** The evaluation this record was read at (saving one is a compare-and-set on it). */
  version: number;
}

/** GET /api/tasks/:id/prs/:prId/lifecycle */
export const PrLifecycleViewSchema = LinkLifecycleSchema.extend({
  state: PrStateSchema,
  merge: MergeOutcomeSchema.nullable().describe(
    'the last auto-merge outcome: merged, refused (why) or waiting (for what)',
  ),
})
  .strict()
  .meta({ id: 'PrLifecycle' });
export type PrLifecycleView = z.output<typeof PrLifecycleViewSchema>;

const SWITCH_COLUMNS = ['auto_fix', 'auto_merge', 'prompt_on_review_requested', 'prompt_on_merged', 'prompt_on_closed'];

const COLUMNS = [
  'task_prs.id as link_id',
  'task_prs.task_id',
  'tasks.workspace_id',
  'task_prs.repository_id',
  'repositories.owner',
  'repositories.name',
  'task_prs.number',
  ...SWITCH_COLUMNS.map((c) => `task_prs.${c}`),
] as const;

type Row = Record<string, unknown> & { link_id: string; task_id: string; workspace_id: string; repository_id: string };

function switchesOf(row: Row): AutomationOptions {
  return {
    auto_fix_enabled: toBoolean(row.auto_fix),
    auto_merge_enabled: toBoolean(row.auto_merge),
    prompt_on_review_requested: toBoolean(row.prompt_on_review_requested),
    prompt_on_merged: toBoolean(row.prompt_on_merged),
    prompt_on_closed: toBoolean(row.prompt_on_closed),
  };
}

function targetOf(row: Row): PrPollTarget {
  const switches = switchesOf(row);
  return {
    linkId: row.link_id,
    taskId: row.task_id,
    workspaceId: row.workspace_id,
    repositoryId: row.repository_id,
    owner: typeof row.owner === 'string' ? row.owner : '',
    repo: String(row.name),
    number: Number(row.number),
    readChecks: switches.auto_fix_enabled || switches.auto_merge_enabled,
  };
}

function mergeOf(value: unknown): MergeOutcome | null {
  return value === null || value === undefined
    ? null
    : parseJsonColumn(MergeOutcomeSchema, value, 'task_prs.merge_outcome');
}

export class PrLifecycleStore {
  constructor(private readonly db: Sql) {}

  private links() {
    return this.db('task_prs')
      .join('tasks', 'tasks.id', 'task_prs.task_id')
      .join('repositories', 'repositories.id', 'task_prs.repository_id');
  }

  async listPollable(): Promise<PrPollTarget[]> {
    const rows = await this.links()
      .whereNull('tasks.archived_at')
      .whereNotNull('repositories.owner')
      .where((q) => {
        for (const column of SWITCH_COLUMNS) void q.orWhere(`task_prs.${column}`, true);
      })
      .orderBy('task_prs.id')
      .select<Row[]>(...COLUMNS);
    return rows.map(targetOf);
  }

  async findTarget(linkId: string): Promise<PrPollTarget | undefined> {
    const row = await this.links()
      .where('task_prs.id', linkId)
      .first<Row | undefined>(...COLUMNS);
    return row === undefined ? undefined : targetOf(row);
  }

  /** The link's switches, checkpoint and last merge outcome, and nothing else of it. */
  async loadForEvaluation(linkId: string): Promise<PrEvaluationRecord | undefined> {
    const row = await this.links()
      .where('task_prs.id', linkId)
      .first<Row | undefined>(
        ...COLUMNS,
        'task_prs.lifecycle_checkpoint',
        'task_prs.merge_outcome',
        'task_prs.lifecycle_version',
      );
    if (row === undefined) return undefined;
    return {
      ...targetOf(row),
      switches: switchesOf(row),
      checkpoint: checkpointOf(row.lifecycle_checkpoint, 'task_prs.lifecycle_checkpoint'),
      merge: mergeOf(row.merge_outcome),
      version: Number(row.lifecycle_version),
    };
  }

  /** What a poll read: the link's state and head move; the poll error clears. */
  recordObservation(linkId: string, observed: { state: PrState; headSha: string }, now: string): Promise<void> {
    return recordObservation(this.db, 'task_prs', linkId, observed, now);
  }

  recordPollError(linkId: string, message: string, now: string): Promise<void> {
    return recordPollError(this.db, 'task_prs', linkId, message, now);
  }

  /** Compare-and-set on the lifecycle version (lifecycle-columns' claimEvaluation). */
  claimEvaluation(linkId: string, version: number): Promise<boolean> {
    return claimEvaluation(this.db, 'task_prs', linkId, version);
  }

  async saveEvaluation(
    linkId: string,
    checkpoint: Checkpoint,
    evaluation: LastEvaluation,
    merge: MergeOutcome | null,
  ): Promise<void> {
    const update: Record<string, string> = {
      lifecycle_checkpoint: JSON.stringify(checkpoint),
      last_evaluation: JSON.stringify(evaluation),
    };
    if (merge !== null) update.merge_outcome = JSON.stringify(merge);
    await this.db('task_prs').where({ id: linkId }).update(update);
  }

  async view(taskId: string, linkId: string): Promise<PrLifecycleView | undefined> {
    const row = await this.db('task_prs')
      .where({ id: linkId, task_id: taskId })
      .first<Record<string, unknown> | undefined>(...LIFECYCLE_COLUMNS, 'merge_outcome');
    if (row === undefined) return undefined;
    const state = PrStateSchema.safeParse(row.state);
    if (!state.success) throw new AppError('internal', `task_prs ${linkId} has an unknown state`);
    return { state: state.data, ...lifecycleOf(row, 'task_prs'), merge: mergeOf(row.merge_outcome) };
  }
}
