import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { type MrState, MrStateSchema } from '../provider-automation/review-link';
import { parseJsonColumn, toBoolean, toNullableIsoString } from '../store/row-values';
import { type Checkpoint, CheckpointSchema, type PromptSwitches } from './lifecycle-rules';

// Targeted reads and writes of task_mrs for the lifecycle poller and evaluator: only the columns each
// step needs (no task-wide scans, no reviewer lists: those are not stored).

/** The last evaluation of a link, as REST shows it. */
export const LastEvaluationSchema = z.object({
  at: z.string(),
  result: z.enum(['baseline', 'prompted', 'unchanged', 'failed']),
  prompted: z.array(z.string()),
  review_skipped: z.string().nullable(),
  reviewers_source: z.enum(['observation', 'fallback', 'none']),
  error: z.string().nullable(),
});
export type LastEvaluation = z.infer<typeof LastEvaluationSchema>;

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

export interface LifecycleView {
  state: MrState;
  head_sha: string | null;
  polled_at: string | null;
  poll_error: string | null;
  checkpoint: Checkpoint | null;
  last_evaluation: LastEvaluation | null;
}

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

/** A stored checkpoint column (task_mrs, task_prs); null when absent or of another shape. */
export function checkpointOf(value: unknown, column = 'task_mrs.lifecycle_checkpoint'): Checkpoint | null {
  if (value === null || value === undefined) return null;
  const parsed = CheckpointSchema.safeParse(parseJsonColumn(z.unknown(), value, column));
  // A checkpoint of another shape (none was ever written before this feature) restarts at a baseline.
  return parsed.success ? parsed.data : null;
}

export class MrLifecycleStore {
  constructor(private readonly db: Knex) {}

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

  /** See claimEvaluation below. */
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

// The lifecycle columns both link tables have (task_mrs: migration 009, task_prs: migration 014).

export type LinkTable = 'task_mrs' | 'task_prs';

export const LIFECYCLE_COLUMNS = [
  'state',
  'head_sha',
  'polled_at',
  'poll_error',
  'lifecycle_checkpoint',
  'last_evaluation',
] as const;

/** A lifecycle view's columns but the state (whose vocabulary is the provider's). */
export function lifecycleOf(row: Record<string, unknown>, table: LinkTable): Omit<LifecycleView, 'state'> {
  return {
    head_sha: typeof row.head_sha === 'string' ? row.head_sha : null,
    polled_at: toNullableIsoString(row.polled_at),
    poll_error: typeof row.poll_error === 'string' ? row.poll_error : null,
    checkpoint: checkpointOf(row.lifecycle_checkpoint, `${table}.lifecycle_checkpoint`),
    last_evaluation:
      row.last_evaluation === null || row.last_evaluation === undefined
        ? null
        : parseJsonColumn(LastEvaluationSchema, row.last_evaluation, `${table}.last_evaluation`),
  };
}

export async function recordObservation(
  db: Knex,
  table: LinkTable,
  linkId: string,
  observed: { state: string; headSha: string | null },
  now: string,
): Promise<void> {
  await db(table)
    .where({ id: linkId })
    .update({ state: observed.state, head_sha: observed.headSha, polled_at: now, poll_error: null, updated_at: now });
}

export async function recordPollError(db: Knex, table: LinkTable, linkId: string, message: string, now: string) {
  await db(table).where({ id: linkId }).update({ poll_error: message, polled_at: now });
}

/**
 * The first write of an evaluation's transaction: moves the link's lifecycle version on from the one its
 * record was read at, by compare-and-set. False (nothing written) when another evaluation committed
 * since, e.g. another replica's of the same transition; on PostgreSQL the second waits for the first's
 * row lock and then finds the version moved.
 */
export async function claimEvaluation(db: Knex, table: LinkTable, linkId: string, version: number): Promise<boolean> {
  const updated = await db(table)
    .where({ id: linkId, lifecycle_version: version })
    .update({ lifecycle_version: version + 1 });
  return updated === 1;
}
