import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseJsonColumn, toIsoString, toNullableIsoString } from '../../platform/store/row-values';
import {
  AnswerDeliveryKindSchema,
  AnswerSchema,
  ClosedReasonSchema,
  type Question,
  QuestionKindSchema,
  QuestionStateSchema,
  StoredQuestionItemSchema,
} from './question';

// The questions table's rows and how they become questions (question-store.ts reads and writes them).

/** A row of the questions table as the driver returns it (timestamps and JSON as each dialect gives them). */
export interface QuestionRow {
  id: string;
  task_id: string;
  session_id: string;
  call_id: string;
  kind: string;
  questions: unknown;
  context: string | null;
  state: string;
  answer: unknown;
  answered_by: string | null;
  closed_reason: string | null;
  answer_delivery: string | null;
  created_at: unknown;
  answered_at: unknown;
  expires_at: unknown;
}

const ItemsSchema = z.array(StoredQuestionItemSchema);
const AnswersSchema = z.array(AnswerSchema);

/** A stored question, every column checked: an unknown kind, state, reason or delivery is an internal error. */
export function fromRow(row: QuestionRow): Question {
  const kind = QuestionKindSchema.safeParse(row.kind);
  const state = QuestionStateSchema.safeParse(row.state);
  const reason = ClosedReasonSchema.nullable().safeParse(row.closed_reason);
  const delivery = AnswerDeliveryKindSchema.nullable().safeParse(row.answer_delivery ?? null);
  if (!kind.success || !state.success || !reason.success || !delivery.success) {
    throw new AppError('internal', `question ${row.id} has an unknown kind, state, reason or delivery`);
  }
  return {
    id: row.id,
    taskId: row.task_id,
    sessionId: row.session_id,
    callId: row.call_id,
    kind: kind.data,
    questions: parseJsonColumn(ItemsSchema, row.questions, 'questions.questions'),
    context: row.context,
    state: state.data,
    answers: row.answer === null ? null : parseJsonColumn(AnswersSchema, row.answer, 'questions.answer'),
    answeredBy: row.answered_by,
    closedReason: reason.data,
    answerDelivery: delivery.data,
    createdAt: toIsoString(row.created_at),
    answeredAt: toNullableIsoString(row.answered_at),
    expiresAt: toIsoString(row.expires_at),
  };
}
