import { AppError } from '@kandev/protocol';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { ParentQuestion } from './parent-question';
import { effectiveQuestion } from './parent-question-lifecycle';

// Read-only views of parent questions for operators (REST). Each read runs in one transaction, since a
// pending question found stale on the way is written down (compare-and-set), never shown as pending.

/** Every question the task asked its parent, oldest first, each with its real status. */
export async function listParentQuestions(uow: UnitOfWork, taskId: string, now: string): Promise<ParentQuestion[]> {
  return uow.transaction(async (stores) => {
    if ((await stores.tasks.findById(taskId)) === undefined) {
      throw new AppError('not_found', `task ${taskId} not found`);
    }
    const questions: ParentQuestion[] = [];
    for (const stored of await stores.parentQuestions.listForChild(taskId)) {
      questions.push(await effectiveQuestion(stores, stored, now));
    }
    return questions;
  });
}

export async function getParentQuestion(uow: UnitOfWork, id: string, now: string): Promise<ParentQuestion> {
  return uow.transaction(async (stores) => {
    const stored = await stores.parentQuestions.findById(id);
    if (stored === undefined) throw new AppError('not_found', `parent question ${id} not found`);
    return effectiveQuestion(stores, stored, now);
  });
}
