import type { Stores } from '../../platform/store/unit-of-work';
import type { PendingAction } from '../../catalogue/tasks/task';
import { pendingQuestionsOfTasks } from './parent-question-lifecycle';

/**
 * What each task waits for from someone else: 'clarification' while it waits on a parent question
 * (really pending: the stale rule is applied and recorded) or on an operator question that has not
 * expired; else null. Run inside a transaction, since a stale question found here is written down.
 */
export async function pendingActionsOf(
  stores: Stores,
  taskIds: readonly string[],
  now: string,
): Promise<Map<string, PendingAction | null>> {
  const [parentQuestions, asking] = await Promise.all([
    pendingQuestionsOfTasks(stores, taskIds, now),
    stores.questions.taskIdsWithPending(taskIds, now),
  ]);
  const waiting = new Set<string>([...parentQuestions.map((question) => question.childTaskId), ...asking]);
  return new Map(taskIds.map((id) => [id, waiting.has(id) ? 'clarification' : null]));
}
