import { AppError } from '@kandev/protocol';
import { type Message, taskAuthor } from '../../catalogue/messages/message';
import { recordTaskPrompt } from '../prompt-queue/task-prompt';
import type { QueuedPrompt } from '../prompt-queue/queued-prompt';
import { newId } from '../../platform/store/row-values';
import type { Stores } from '../../platform/store/unit-of-work';
import type { Task } from '../../catalogue/tasks/task';
import type { ParentQuestion } from './parent-question';
import { effectiveQuestion, syncQuestionMessage } from './parent-question-lifecycle';
import { answerPromptText } from './parent-question-prompts';
import { decideReply } from './parent-reply-decision';

// message_task_kandev with reply_to_question_id, inside the caller's transaction: the compare-and-set
// pending -> answered and the child's answer prompt commit together, so one accepted answer is exactly
// one queued prompt (and, through the exactly-once drainer, one child turn), whatever races or crashes.

export interface ReplyRequest {
  questionId: string;
  /** The replying task (the bound caller) and its session. */
  caller: Task;
  callerSessionId: string;
  /** The task the message is addressed to. */
  target: Task;
  answer: string;
  now: string;
}

export type ReplyResult =
  | { kind: 'answered'; question: ParentQuestion; queued: QueuedPrompt; message: Message }
  | { kind: 'already_answered'; question: ParentQuestion }
  /** Commit, then throw `error`: a stale question found on the way stays recorded. */
  | { kind: 'rejected'; error: AppError };

export async function replyToParentQuestion(stores: Stores, request: ReplyRequest): Promise<ReplyResult> {
  const { questionId, caller, target, now } = request;
  // Two passes at most: a compare-and-set lost to a concurrent writer is decided again on what won.
  for (let pass = 0; pass < 2; pass += 1) {
    const stored = await stores.parentQuestions.findById(questionId);
    const question = stored === undefined ? undefined : await effectiveQuestion(stores, stored, now);
    const decision = decideReply({
      questionId,
      question,
      targetTaskId: target.id,
      targetParentId: target.parentId,
      senderTaskId: caller.id,
    });
    if (decision.kind === 'reject') {
      const details = { reply_to_question_id: questionId, task_id: target.id };
      return { kind: 'rejected', error: new AppError(decision.code, decision.message, details) };
    }
    if (question === undefined) break; // unreachable: decideReply rejects an unknown question
    if (decision.kind === 'already_answered') return { kind: 'already_answered', question };
    const answerPromptId = newId();
    const accepted = { answer: request.answer, byTaskId: caller.id, bySessionId: request.callerSessionId };
    if (!(await stores.parentQuestions.markAnswered(questionId, { ...accepted, answerPromptId, now }))) continue;
    const answered: ParentQuestion = {
      ...question,
      status: 'answered',
      answer: request.answer,
      answeredByTaskId: caller.id,
      answeredBySessionId: request.callerSessionId,
      answerPromptId,
      answeredAt: now,
    };
    await syncQuestionMessage(stores, answered);
    const { queued, message } = await recordTaskPrompt(stores, {
      taskId: question.childTaskId,
      // The session that asked (the stale rule just checked it is live and not resumed since).
      sessionId: question.childSessionId,
      author: taskAuthor(caller.id),
      text: answerPromptText(question, { taskId: caller.id, title: caller.title }, request.answer),
      metadata: { question_id: questionId, from_session_id: request.callerSessionId },
      type: 'parent_answer',
      priority: 'answer',
      queuedPromptId: answerPromptId,
      now,
    });
    return { kind: 'answered', question: answered, queued, message };
  }
  throw new AppError('internal', `question ${questionId} kept changing while it was answered`);
}
