import type { TaskAttention } from '../../catalogue/tasks/task';
import type { Stores } from '../../platform/store/unit-of-work';
import { pendingQuestionsOfTasks } from './parent-question-lifecycle';

/**
 * What each task's board card badges, for a page of tasks in a fixed number of queries: its newest
 * session (state, last error) and how many questions wait on it (operator questions pending and
 * unexpired, plus parent questions really pending: the stale rule is applied and recorded, so run it
 * inside a transaction). Injected into TaskService (catalogue sits below sessions and questions).
 */
export async function attentionOf(
  stores: Stores,
  taskIds: readonly string[],
  now: string,
): Promise<Map<string, TaskAttention>> {
  const [newest, operatorCounts, parentQuestions] = await Promise.all([
    stores.sessions.newestOfTasks(taskIds),
    stores.questions.pendingCountsOf(taskIds, now),
    pendingQuestionsOfTasks(stores, taskIds, now),
  ]);
  const sessionOf = new Map(newest.map((session) => [session.taskId, session]));
  const pending = new Map(operatorCounts);
  for (const question of parentQuestions) {
    pending.set(question.childTaskId, (pending.get(question.childTaskId) ?? 0) + 1);
  }
  return new Map(
    taskIds.map((id) => {
      const session = sessionOf.get(id);
      const attention: TaskAttention = {
        latest_session:
          session === undefined
            ? null
            : { id: session.id, state: session.state, last_error: session.lastError, updated_at: session.updatedAt },
        failed: session?.state === 'failed',
        pending_questions: pending.get(id) ?? 0,
      };
      return [id, attention];
    }),
  );
}
