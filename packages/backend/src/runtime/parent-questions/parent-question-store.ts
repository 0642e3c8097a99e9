import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import type { EventStore } from '../../platform/events/event-store';
import { columnsOf, parseJsonColumn, toIsoString, toNullableIsoString } from '../../platform/store/row-values';
import {
  type ParentClosedReason,
  ParentClosedReasonSchema,
  type ParentQuestion,
  ParentQuestionStatusSchema,
  toParentQuestionView,
} from './parent-question';
import { StoredQuestionItemSchema } from '../questions/question';
import type { Sql } from '../../platform/store/sql';
import { fromTimeBound, type TimeBound } from '../../platform/store/time-keyset';

interface ParentQuestionRow {
  id: string;
  child_task_id: string;
  child_session_id: string;
  child_session_token_hash: string;
  parent_task_id: string;
  call_key: string;
  call_id: string;
  turn_prompt_id: string | null;
  questions: unknown;
  context: string | null;
  blocked_reason: string;
  status: string;
  closed_reason: string | null;
  message_id: string;
  parent_prompt_id: string;
  answer: string | null;
  answered_by_task_id: string | null;
  answered_by_session_id: string | null;
  answer_prompt_id: string | null;
  created_at: unknown;
  answered_at: unknown;
  closed_at: unknown;
}

const PARENT_QUESTION_COLUMNS = columnsOf<ParentQuestionRow>({
  id: true,
  child_task_id: true,
  child_session_id: true,
  child_session_token_hash: true,
  parent_task_id: true,
  call_key: true,
  call_id: true,
  turn_prompt_id: true,
  questions: true,
  context: true,
  blocked_reason: true,
  status: true,
  closed_reason: true,
  message_id: true,
  parent_prompt_id: true,
  answer: true,
  answered_by_task_id: true,
  answered_by_session_id: true,
  answer_prompt_id: true,
  created_at: true,
  answered_at: true,
  closed_at: true,
});

const ItemsSchema = z.array(StoredQuestionItemSchema);

function fromRow(row: ParentQuestionRow): ParentQuestion {
  const status = ParentQuestionStatusSchema.safeParse(row.status);
  const reason = ParentClosedReasonSchema.nullable().safeParse(row.closed_reason);
  if (!status.success || !reason.success) {
    throw new AppError('internal', `parent question ${row.id} has an unknown status or reason`);
  }
  return {
    id: row.id,
    childTaskId: row.child_task_id,
    childSessionId: row.child_session_id,
    childSessionTokenHash: row.child_session_token_hash,
    parentTaskId: row.parent_task_id,
    callKey: row.call_key,
    callId: row.call_id,
    turnPromptId: row.turn_prompt_id,
    questions: parseJsonColumn(ItemsSchema, row.questions, 'parent_questions.questions'),
    context: row.context,
    blockedReason: row.blocked_reason,
    status: status.data,
    closedReason: reason.data,
    messageId: row.message_id,
    parentPromptId: row.parent_prompt_id,
    answer: row.answer,
    answeredByTaskId: row.answered_by_task_id,
    answeredBySessionId: row.answered_by_session_id,
    answerPromptId: row.answer_prompt_id,
    createdAt: toIsoString(row.created_at),
    answeredAt: toNullableIsoString(row.answered_at),
    closedAt: toNullableIsoString(row.closed_at),
  };
}

/** What an accepted answer records. */
export interface AcceptedAnswer {
  answer: string;
  byTaskId: string;
  bySessionId: string;
  answerPromptId: string;
  now: string;
}

/**
 * Parent questions. The status moves only from 'pending' and only by compare-and-set, so concurrent
 * answers, supersedes and stale marks settle a question exactly once; the loser sees false.
 */
export class ParentQuestionStore {
  constructor(
    private readonly db: Sql,
    private readonly events: EventStore,
  ) {}

  /** A read of whole rows, naming every column (so on PostgreSQL it may run as a named statement). */
  private rows() {
    return this.db<ParentQuestionRow>('parent_questions').select(PARENT_QUESTION_COLUMNS);
  }

  /** Each status move appends its event (on the child's task and session) on the same connection. */
  private async recordEvent(
    type: 'parent_question.created' | 'parent_question.answered' | 'parent_question.closed',
    id: string,
    at: string,
  ): Promise<void> {
    const question = await this.findById(id);
    if (question === undefined) return;
    await this.events.append({
      type,
      taskId: question.childTaskId,
      sessionId: question.childSessionId,
      data: { question: toParentQuestionView(question) },
      at,
    });
  }

  /** Violates a unique key when the same call (call_key) or a second pending question of the session races in. */
  async insert(question: ParentQuestion): Promise<void> {
    await this.db('parent_questions').insert({
      id: question.id,
      child_task_id: question.childTaskId,
      child_session_id: question.childSessionId,
      child_session_token_hash: question.childSessionTokenHash,
      parent_task_id: question.parentTaskId,
      call_key: question.callKey,
      call_id: question.callId,
      turn_prompt_id: question.turnPromptId,
      questions: JSON.stringify(question.questions),
      context: question.context,
      blocked_reason: question.blockedReason,
      status: question.status,
      closed_reason: question.closedReason,
      message_id: question.messageId,
      parent_prompt_id: question.parentPromptId,
      answer: question.answer,
      answered_by_task_id: question.answeredByTaskId,
      answered_by_session_id: question.answeredBySessionId,
      answer_prompt_id: question.answerPromptId,
      created_at: question.createdAt,
      answered_at: question.answeredAt,
      closed_at: question.closedAt,
    });
    await this.recordEvent('parent_question.created', question.id, question.createdAt);
  }

  async findById(id: string): Promise<ParentQuestion | undefined> {
    const row = await this.rows().where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  async findByCallKey(callKey: string): Promise<ParentQuestion | undefined> {
    const row = await this.rows().where({ call_key: callKey }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** The session's pending question as stored (at most one: a partial unique index). */
  async findPendingForSession(sessionId: string): Promise<ParentQuestion | undefined> {
    const row = await this.rows().where({ child_session_id: sessionId, status: 'pending' }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Stored-pending questions asked by any of these tasks, oldest first. */
  async listPendingForTasks(taskIds: readonly string[]): Promise<ParentQuestion[]> {
    if (taskIds.length === 0) return [];
    const rows = await this.rows()
      .whereIn('child_task_id', [...taskIds])
      .where({ status: 'pending' })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** Up to `limit` questions the task asked after `bound`, by (created_at, id): its timeline's. */
  async listForTimeline(taskId: string, bound: TimeBound | undefined, limit: number): Promise<ParentQuestion[]> {
    const rows = await fromTimeBound(this.rows().where({ child_task_id: taskId }), 'created_at', 'id', bound).limit(
      limit,
    );
    return rows.map(fromRow);
  }

  /** Every question the task asked, oldest first. */
  async listForChild(taskId: string): Promise<ParentQuestion[]> {
    const rows = await this.rows()
      .where({ child_task_id: taskId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** pending -> answered. False: someone settled it first. */
  async markAnswered(id: string, accepted: AcceptedAnswer): Promise<boolean> {
    const updated = await this.db('parent_questions').where({ id, status: 'pending' }).update({
      status: 'answered',
      answer: accepted.answer,
      answered_by_task_id: accepted.byTaskId,
      answered_by_session_id: accepted.bySessionId,
      answer_prompt_id: accepted.answerPromptId,
      answered_at: accepted.now,
    });
    if (updated > 0) await this.recordEvent('parent_question.answered', id, accepted.now);
    return updated > 0;
  }

  /** pending -> superseded | stale. False: someone settled it first. */
  async close(id: string, status: 'superseded' | 'stale', reason: ParentClosedReason, now: string): Promise<boolean> {
    const updated = await this.db('parent_questions')
      .where({ id, status: 'pending' })
      .update({ status, closed_reason: reason, closed_at: now });
    if (updated > 0) await this.recordEvent('parent_question.closed', id, now);
    return updated > 0;
  }
}
