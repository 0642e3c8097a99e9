import type { Sql } from '../../platform/store/sql';
import { fromTimeBound, type TimeBound } from '../../platform/store/time-keyset';
import { type CreationPosition, inCreationOrder } from '../../platform/store/creation-order';
import { z } from 'zod';
import type { EventStore } from '../../platform/events/event-store';
import { toIsoString } from '../../platform/store/row-values';
import { fromRow, type QuestionRow } from './question-rows';
import {
  type Answer,
  type AnswerDeliveryKind,
  type ClosedReason,
  type Question,
  type QuestionState,
  toQuestionView,
  QUESTION_STATES,
} from './question';

export interface QuestionPageFilter {
  state?: QuestionState;
  taskId?: string;
  workspaceId?: string;
  /** The caller's workspaces (a limited token); absent: every workspace. */
  workspaceIds?: readonly string[];
  now: string;
  after?: CreationPosition;
  newestFirst?: boolean;
  limit: number;
}

const HolderSchema = z.object({ held_by: z.string().nullable() });
/** Where each state's count in GET /api/questions stops (docs: `counts`). */
export const COUNT_CAP = 1_000;

/**
 * Not yet expired at `now`, tested row by row: written `NOT (expires_at <= now)` where another index
 * must lead (a page in creation order, a page of tasks' ids). As a range, `expires_at > now` makes
 * SQLite's planner (it has no statistics) take the (state, expires_at) index instead, and read every
 * pending question of the database for each call.
 */
function notExpired(query: ReturnType<Sql>, now: string): ReturnType<Sql> {
  return query.whereNot('questions.expires_at', '<=', now);
}

type QuestionEventType = 'question.created' | 'question.answered' | 'question.closed';

/**
 * Questions and their lifecycle; every state change is a compare-and-set on state = 'pending', and
 * appends its event (question.created | answered | closed) on the same connection.
 */
export class QuestionStore {
  constructor(
    private readonly db: Sql,
    private readonly events: EventStore,
  ) {}

  private async recordEvent(type: QuestionEventType, id: string, at: string): Promise<void> {
    const question = await this.findById(id);
    if (question === undefined) return;
    await this.events.append({
      type,
      taskId: question.taskId,
      sessionId: question.sessionId,
      data: { question: toQuestionView(question, at) },
      at,
    });
  }

  /** Closes each of these pending questions by compare-and-set; resolves how many it closed. */
  private async closeEach(ids: readonly string[], columns: Record<string, string>, at: string): Promise<number> {
    let closed = 0;
    for (const id of ids) {
      const updated = await this.db('questions').where({ id, state: 'pending' }).update(columns);
      if (updated === 0) continue;
      closed += 1;
      await this.recordEvent('question.closed', id, at);
    }
    return closed;
  }

  /** `heldBy`: the replica whose tool call waits on the question (null: nobody waits). */
  async insert(question: Question, heldBy: string | null = null): Promise<void> {
    await this.db('questions').insert({
      held_by: heldBy,
      id: question.id,
      task_id: question.taskId,
      session_id: question.sessionId,
      call_id: question.callId,
      kind: question.kind,
      questions: JSON.stringify(question.questions),
      context: question.context,
      state: question.state,
      answer: question.answers === null ? null : JSON.stringify(question.answers),
      answered_by: question.answeredBy,
      closed_reason: question.closedReason,
      answer_delivery: question.answerDelivery,
      created_at: question.createdAt,
      answered_at: question.answeredAt,
      expires_at: question.expiresAt,
    });
    await this.recordEvent('question.created', question.id, question.createdAt);
  }

  async findById(id: string): Promise<Question | undefined> {
    const row = await this.db<QuestionRow>('questions').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** The replica holding the question's tool call: null when none (or unknown), undefined when no such question. */
  async holderOf(id: string): Promise<string | null | undefined> {
    const row: unknown = await this.db('questions').where({ id }).first('held_by');
    return row === undefined ? undefined : HolderSchema.parse(row).held_by;
  }

  /** Up to `limit` of the task's questions (any kind, any state) asked after `bound`, by (created_at, id). */
  async listForTimeline(taskId: string, bound: TimeBound | undefined, limit: number): Promise<Question[]> {
    const query = this.db<QuestionRow>('questions').where({ task_id: taskId });
    const rows: QuestionRow[] = await fromTimeBound(query, 'created_at', 'id', bound).limit(limit);
    return rows.map(fromRow);
  }

  /** Oldest first, optionally by state and task. */
  async list(filter: { state?: QuestionState; taskId?: string }): Promise<Question[]> {
    const query = this.db<QuestionRow>('questions');
    if (filter.state !== undefined) void query.where({ state: filter.state });
    if (filter.taskId !== undefined) void query.where({ task_id: filter.taskId });
    const rows = await query.orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** Questions pending and not yet expired at `now`, and when the oldest was asked (the metrics gauges). */
  async pendingSummary(now: string): Promise<{ count: number; oldestAskedAt: string | null }> {
    const row = (await this.db('questions')
      .where({ state: 'pending' })
      .where('expires_at', '>', now)
      .count({ count: '*' })
      .min({ oldest: 'created_at' })
      .first()) as { count: number | string; oldest: string | Date | null } | undefined;
    const oldest = row?.oldest ?? null;
    return {
      count: Number(row?.count ?? 0),
      oldestAskedAt: oldest === null ? null : toIsoString(oldest),
    };
  }

  /**
   * One page of questions in creation order, or newest first (ties by id), strictly after `after`, by the state a reader
   * sees at `now` (a stored pending question past its expiry reads as expired), task and workspace.
   */
  async listPage(filter: QuestionPageFilter): Promise<Question[]> {
    const query = this.filtered(filter);
    if (filter.state !== undefined) void this.inEffectiveState(query, filter.state, filter.now, 'in order');
    const rows = (await inCreationOrder(
      query,
      filter.after,
      filter.limit,
      filter.newestFirst === true,
    )) as QuestionRow[];
    return rows.map(fromRow);
  }

  /**
   * How many questions are in each state a reader sees at `now`, under the page's other filters, each
   * count stopping at COUNT_CAP: an exact count would read every row of a long history (answered
   * questions pile up), where a tab only needs "1000+". Each count reads at most COUNT_CAP + 1 entries
   * of an index on the state.
   */
  async countsByState(
    filter: Omit<QuestionPageFilter, 'state' | 'after' | 'limit' | 'newestFirst'>,
  ): Promise<Record<QuestionState, number>> {
    const counts: Record<QuestionState, number> = { pending: 0, answered: 0, expired: 0, cancelled: 0 };
    for (const state of QUESTION_STATES) {
      const rows = this.inEffectiveState(this.filtered(filter), state, filter.now)
        .select(this.db.raw('1'))
        .limit(COUNT_CAP);
      const row = (await this.db.queryBuilder().count({ count: '*' }).from(rows.as('capped')).first()) as
        { count: number | string } | undefined;
      counts[state] = Number(row?.count ?? 0);
    }
    return counts;
  }

  private filtered(filter: { taskId?: string; workspaceId?: string; workspaceIds?: readonly string[] }) {
    const query = this.db('questions');
    if (filter.workspaceIds !== undefined) {
      void query.whereIn(
        'questions.task_id',
        this.db('tasks')
          .whereIn('workspace_id', [...filter.workspaceIds])
          .select('id'),
      );
    }
    if (filter.taskId !== undefined) void query.where('questions.task_id', filter.taskId);
    if (filter.workspaceId !== undefined) {
      // A subquery, not a join: the page's order columns stay unambiguous.
      void query.whereIn('questions.task_id', this.db('tasks').where('workspace_id', filter.workspaceId).select('id'));
    }
    return query;
  }

  /**
   * `read: 'in order'` (a page): a pending page walks the (state, created_at, id) index in order and
   * stops after a page, the expiry tested on each row (notExpired). A count keeps the range: the
   * (state, expires_at) index covers it.
   */
  private inEffectiveState(query: ReturnType<Sql>, state: QuestionState, now: string, read?: 'in order') {
    if (state === 'pending' && read === 'in order') return notExpired(query.where('questions.state', 'pending'), now);
    if (state === 'pending') return query.where('questions.state', 'pending').where('questions.expires_at', '>', now);
    if (state !== 'expired') return query.where('questions.state', state);
    return query.where((q) => {
      void q
        .where('questions.state', 'expired')
        .orWhere((late) => void late.where('questions.state', 'pending').where('questions.expires_at', '<=', now));
    });
  }

  /** How many operator questions each of these tasks has pending (and not yet expired) at `now`. */
  async pendingCountsOf(taskIds: readonly string[], now: string): Promise<Map<string, number>> {
    if (taskIds.length === 0) return new Map();
    const pending = this.db('questions')
      .whereIn('task_id', [...taskIds])
      .where({ state: 'pending' });
    const rows: { task_id: string; count: number | string }[] = await notExpired(pending, now)
      .groupBy('task_id')
      .select('task_id')
      .count({ count: '*' });
    return new Map(rows.map((row) => [row.task_id, Number(row.count)]));
  }

  /** Which of these tasks have an operator question still pending (and not yet expired) at `now`. */
  async taskIdsWithPending(taskIds: readonly string[], now: string): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const pending = this.db('questions')
      .whereIn('task_id', [...taskIds])
      .where({ state: 'pending' });
    const rows: { task_id: string }[] = await notExpired(pending, now).distinct('task_id');
    return rows.map((row) => row.task_id);
  }

  /**
   * Pending -> answered, with where the answer goes, only while pending and not yet expired. False:
   * someone else settled it.
   */
  async markAnswered(
    id: string,
    answer: { answers: readonly Answer[]; by: string; delivery: AnswerDeliveryKind },
    now: string,
  ): Promise<boolean> {
    const updated = await this.db('questions')
      .where({ id, state: 'pending' })
      .where('expires_at', '>', now)
      .update({
        state: 'answered',
        answer: JSON.stringify(answer.answers),
        answered_by: answer.by,
        answered_at: now,
        answer_delivery: answer.delivery,
      });
    if (updated > 0) await this.recordEvent('question.answered', id, now);
    return updated > 0;
  }

  /** Pending -> expired or cancelled. False: it was no longer pending. */
  async close(id: string, reason: ClosedReason): Promise<boolean> {
    const columns = { state: reason === 'timeout' ? 'expired' : 'cancelled', closed_reason: reason };
    return (await this.closeEach([id], columns, new Date().toISOString())) > 0;
  }

  /** Every pending question of these sessions -> cancelled (session_stopped). */
  async cancelForSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const rows = await this.db<QuestionRow>('questions')
      .select('id')
      .whereIn('session_id', [...sessionIds])
      .where({ state: 'pending' });
    const columns = { state: 'cancelled', closed_reason: 'session_stopped' };
    return this.closeEach(
      rows.map((row) => row.id),
      columns,
      new Date().toISOString(),
    );
  }

  /**
   * Pending permission questions -> cancelled (boot): their agent's request was held by the process
   * that died, and agentctl rejected it when that stream dropped, so nobody can take an answer. Those
   * held by a replica in `aliveHolders` are still waited on (several replicas: another one holds them).
   */
  async cancelOrphanedPermissions(now: string, aliveHolders: readonly string[] = []): Promise<number> {
    const rows = await this.db<QuestionRow>('questions')
      .select('id')
      .where({ state: 'pending', kind: 'permission' })
      .where((q) => void q.whereNull('held_by').orWhereNotIn('held_by', [...aliveHolders]));
    const columns = { state: 'cancelled', closed_reason: 'cancelled' };
    return this.closeEach(
      rows.map((row) => row.id),
      columns,
      now,
    );
  }

  /** Pending questions past their expiry -> expired (timeout). */
  async expireStale(now: string): Promise<number> {
    const rows = await this.db<QuestionRow>('questions')
      .select('id')
      .where({ state: 'pending' })
      .where('expires_at', '<=', now);
    const columns = { state: 'expired', closed_reason: 'timeout' };
    return this.closeEach(
      rows.map((row) => row.id),
      columns,
      now,
    );
  }
}
