import { z } from 'zod';
import { parseJsonColumn, toNullableIsoString } from '../../platform/store/row-values';
import { type Checkpoint, CheckpointSchema } from './lifecycle-rules';
import type { Sql } from '../../platform/store/sql';

// The lifecycle columns both link tables have (task_mrs: migration 009, task_prs: migration 014), read
// and written the same way by the GitLab MR and GitHub PR stores.

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

/** A link's lifecycle as REST shows it, but its state (whose vocabulary is the provider's). */
export const LinkLifecycleSchema = z.object({
  head_sha: z.string().nullable(),
  polled_at: z.string().nullable(),
  poll_error: z.string().nullable(),
  checkpoint: CheckpointSchema.nullable(),
  last_evaluation: LastEvaluationSchema.nullable(),
});
export type LinkLifecycle = z.output<typeof LinkLifecycleSchema>;

/** A stored checkpoint column (task_mrs, task_prs); null when absent or of another shape. */
export function checkpointOf(value: unknown, column = 'task_mrs.lifecycle_checkpoint'): Checkpoint | null {
  if (value === null || value === undefined) return null;
  const parsed = CheckpointSchema.safeParse(parseJsonColumn(z.unknown(), value, column));
  // A checkpoint of another shape (none was ever written before this feature) restarts at a baseline.
  return parsed.success ? parsed.data : null;
}

export type LinkTable = 'task_mrs' | 'task_prs';

export const LIFECYCLE_COLUMNS = [
  'state',
  'head_sha',
  'polled_at',
  'poll_error',
  'lifecycle_checkpoint',
  'last_evaluation',
] as const;

export function lifecycleOf(row: Record<string, unknown>, table: LinkTable): LinkLifecycle {
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
  db: Sql,
  table: LinkTable,
  linkId: string,
  observed: { state: string; headSha: string | null },
  now: string,
): Promise<void> {
  await db(table)
    .where({ id: linkId })
    .update({ state: observed.state, head_sha: observed.headSha, polled_at: now, poll_error: null, updated_at: now });
}

export async function recordPollError(db: Sql, table: LinkTable, linkId: string, message: string, now: string) {
  await db(table).where({ id: linkId }).update({ poll_error: message, polled_at: now });
}

/**
 * The first write of an evaluation's transaction: moves the link's lifecycle version on from the one its
 * record was read at, by compare-and-set. False (nothing written) when another evaluation committed
 * since, e.g. another replica's of the same transition; on PostgreSQL the second waits for the first's
 * row lock and then finds the version moved.
 */
export async function claimEvaluation(db: Sql, table: LinkTable, linkId: string, version: number): Promise<boolean> {
  const updated = await db(table)
    .where({ id: linkId, lifecycle_version: version })
    .update({ lifecycle_version: version + 1 });
  return updated === 1;
}
