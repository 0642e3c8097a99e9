import type { Stores } from '../../platform/store/unit-of-work';
import {
  type ParentClosedReason,
  type ParentQuestion,
  questionMessageMetadata,
  type StaleReason,
  staleReasonOf,
  type SupersedeReason,
} from './parent-question';

// The moves of a parent question that are not an answer, inside the caller's transaction: superseded
// by new input, stale when the asking session or task is gone. Every move is a compare-and-set on
// 'pending' plus the child's conversation entry rewritten to match, in the same transaction.

/** The entry in the child's conversation follows the record (status, reason, timestamps). */
export async function syncQuestionMessage(stores: Stores, question: ParentQuestion): Promise<void> {
  await stores.messages.updateMetadata(question.messageId, 'parent_question', questionMessageMetadata(question));
}

/** pending -> superseded | stale. Resolves the question as it now stands (unchanged if it lost the race). */
export async function closeQuestion(
  stores: Stores,
  question: ParentQuestion,
  status: 'superseded' | 'stale',
  reason: ParentClosedReason,
  now: string,
): Promise<ParentQuestion> {
  if (!(await stores.parentQuestions.close(question.id, status, reason, now))) {
    return (await stores.parentQuestions.findById(question.id)) ?? question;
  }
  const closed: ParentQuestion = { ...question, status, closedReason: reason, closedAt: now };
  await syncQuestionMessage(stores, closed);
  return closed;
}

/**
 * The question as it really is: a stored-pending question whose asking session ended, was resumed
 * since, or whose task is archived or gone, is stale, and this records it (compare-and-set).
 */
export async function effectiveQuestion(stores: Stores, question: ParentQuestion, now: string) {
  if (question.status !== 'pending') return question;
  const task = await stores.tasks.findById(question.childTaskId);
  const session = await stores.sessions.findById(question.childSessionId);
  const reason = staleReasonOf(question, { task, session });
  return reason === null ? question : closeQuestion(stores, question, 'stale', reason, now);
}

/** The session's question that really is pending, if any (the gate and a second ask read this). */
export async function pendingQuestionOfSession(stores: Stores, sessionId: string, now: string) {
  const stored = await stores.parentQuestions.findPendingForSession(sessionId);
  if (stored === undefined) return undefined;
  const question = await effectiveQuestion(stores, stored, now);
  return question.status === 'pending' ? question : undefined;
}

/** The questions of these tasks that really are pending. */
export async function pendingQuestionsOfTasks(stores: Stores, taskIds: readonly string[], now: string) {
  const pending: ParentQuestion[] = [];
  for (const stored of await stores.parentQuestions.listPendingForTasks(taskIds)) {
    const question = await effectiveQuestion(stores, stored, now);
    if (question.status === 'pending') pending.push(question);
  }
  return pending;
}

/**
 * New explicit input for the task (an operator's prompt, a message without reply_to_question_id): its
 * pending questions are superseded in the same transaction that admits the input, so a late answer
 * can never start a turn after it. Resolves the ids superseded.
 */
export async function supersedePendingQuestions(
  stores: Stores,
  taskId: string,
  reason: SupersedeReason,
  now: string,
): Promise<string[]> {
  const superseded: string[] = [];
  for (const question of await pendingQuestionsOfTasks(stores, [taskId], now)) {
    const closed = await closeQuestion(stores, question, 'superseded', reason, now);
    if (closed.status === 'superseded') superseded.push(closed.id);
  }
  return superseded;
}

/** The session ended (stopped, agent exited, lost): its pending question is stale, written down now. */
export async function markSessionQuestionsStale(
  stores: Stores,
  sessionId: string,
  reason: StaleReason,
  now: string,
): Promise<void> {
  const stored = await stores.parentQuestions.findPendingForSession(sessionId);
  if (stored !== undefined) await closeQuestion(stores, stored, 'stale', reason, now);
}
