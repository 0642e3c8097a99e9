import type { ErrorCode } from '@kandev/protocol';
import type { ParentQuestion } from './parent-question';

// Pure: whether message_task_kandev {task_id, prompt, reply_to_question_id} answers a parent question.
// The caller applies it inside one transaction, after the stale rule, and the acceptance itself is a
// compare-and-set on the status: this decides, the store makes it stick exactly once.

export interface ReplyInput {
  questionId: string;
  /** The question as read (status already past the stale rule), or undefined when unknown. */
  question: Pick<ParentQuestion, 'id' | 'childTaskId' | 'status' | 'closedReason' | 'answeredAt'> | undefined;
  /** The task the reply is addressed to (message_task's task_id). */
  targetTaskId: string;
  /** The target's CURRENT direct parent (reparenting moves who may answer). */
  targetParentId: string | null;
  /** The replying task (the bound caller). */
  senderTaskId: string;
}

export type ReplyDecision =
  | { kind: 'accept' }
  /** The first answer won already: nothing is delivered again. */
  | { kind: 'already_answered'; answeredAt: string | null }
  | { kind: 'reject'; code: ErrorCode; message: string };

const RESEND = 'send the prompt without reply_to_question_id if the subtask should still get it';

export function decideReply(input: ReplyInput): ReplyDecision {
  const { question, questionId } = input;
  if (question === undefined) {
    return { kind: 'reject', code: 'not_found', message: `no parent question ${questionId}; ${RESEND}` };
  }
  if (question.childTaskId !== input.targetTaskId) {
    return {
      kind: 'reject',
      code: 'failed_precondition',
      message: `question ${questionId} was asked by task ${question.childTaskId}, not by task ${input.targetTaskId}`,
    };
  }
  if (input.targetParentId !== input.senderTaskId) {
    return {
      kind: 'reject',
      code: 'permission_denied',
      message:
        `question ${questionId} can be answered only by the current direct parent of task ${question.childTaskId}; ` +
        `task ${input.senderTaskId} is not`,
    };
  }
  switch (question.status) {
    case 'pending':
      return { kind: 'accept' };
    case 'answered':
      return { kind: 'already_answered', answeredAt: question.answeredAt };
    case 'superseded':
    case 'stale':
      return {
        kind: 'reject',
        code: 'failed_precondition',
        message: `question ${questionId} is ${question.status} (${question.closedReason ?? 'unknown'}), no longer pending; ${RESEND}`,
      };
  }
}
