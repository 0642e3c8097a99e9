import { AppError } from '@kandev/protocol';
import { taskAuthor } from '../../catalogue/messages/message';
import { recordTaskPrompt } from '../prompt-queue/task-prompt';
import { isUniqueViolation } from '../../platform/store/constraint-errors';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import { assertWritable, type Task } from '../../catalogue/tasks/task';
import { type CallBinding, loadCaller } from '../sessions/task-binding';
import {
  type AskParentQuestionArgs,
  askRefusal,
  type ParentQuestion,
  parentQuestionCallKey,
  questionMessageMetadata,
} from './parent-question';
import { effectiveQuestion, pendingQuestionOfSession } from './parent-question-lifecycle';
import { parentPromptText, questionMessageText } from './parent-question-prompts';
import { toQuestionItems } from '../questions/question';

// ask_parent_question_kandev's use case: in ONE transaction the question is recorded (its row and the
// 'parent_question' entry on the child) and one attributed prompt is queued for the parent; the gate
// holds the child from then on because the row is pending. Nothing waits: delivery to the parent is
// the prompt queue's exactly-once drainer, so a failed delivery is the same prompt sent again.

/** The asking call: its binding and its id (a tool call's context is one). */
export interface AskContext extends CallBinding {
  readonly callId: string;
}

export type AskOutcome = 'asked' | 'retried' | 'already_pending';

export interface AskResult {
  question: ParentQuestion;
  outcome: AskOutcome;
  /** The parent session to kick once committed: its question prompt waits there (null: none yet). */
  kickSessionId: string | null;
}

/** Throws the refusal for a caller that has nobody to ask. */
export function assertMayAskParent(caller: Task): void {
  const refusal = askRefusal(caller);
  if (refusal !== null) throw new AppError(refusal.code, refusal.message);
}

/** Checked before the arguments, so a root or a normal task hears why, whatever it sent. */
export async function precheckAsk(stores: Stores, context: AskContext): Promise<void> {
  assertMayAskParent(await loadCaller(stores, context));
}

export async function askParentQuestion(
  uow: UnitOfWork,
  clock: () => Date,
  context: AskContext,
  args: AskParentQuestionArgs,
): Promise<AskResult> {
  const attempt = () => uow.transaction((stores) => askWithin(stores, context, args, clock().toISOString()));
  try {
    return await attempt();
  } catch (error) {
    // The same call (or a second question of the session) committed concurrently: read what won.
    if (!isUniqueViolation(error)) throw error;
    return attempt();
  }
}

async function askWithin(
  stores: Stores,
  context: AskContext,
  args: AskParentQuestionArgs,
  now: string,
): Promise<AskResult> {
  const caller = await loadCaller(stores, context);
  assertWritable(caller);
  assertMayAskParent(caller);
  const parent = caller.parentId === null ? undefined : await stores.tasks.findById(caller.parentId);
  if (parent === undefined) throw new AppError('failed_precondition', `task ${caller.id} has no parent to ask`);
  if (parent.archivedAt !== null) {
    throw new AppError(
      'failed_precondition',
      `your parent task ${parent.id} is archived, so no one can answer; proceed with your best judgment`,
    );
  }
  const session = await stores.sessions.findById(context.sessionId);
  if (session === undefined) throw new AppError('failed_precondition', `session ${context.sessionId} is gone`);
  const turnPromptId = (await stores.promptQueue.findDispatched(session.id))?.id ?? null;
  const callKey = parentQuestionCallKey({ sessionId: session.id, turnPromptId, args });
  const same = await stores.parentQuestions.findByCallKey(callKey);
  if (same !== undefined) return existing(stores, await effectiveQuestion(stores, same, now), 'retried');
  const pending = await pendingQuestionOfSession(stores, session.id, now);
  if (pending !== undefined) return existing(stores, pending, 'already_pending');

  const draft: ParentQuestion = {
    id: newId(),
    childTaskId: caller.id,
    childSessionId: session.id,
    childSessionTokenHash: session.mcpTokenHash,
    parentTaskId: parent.id,
    callKey,
    callId: context.callId,
    turnPromptId,
    questions: toQuestionItems(args),
    context: args.context ?? null,
    blockedReason: args.blocked_reason,
    status: 'pending',
    closedReason: null,
    messageId: newId(),
    parentPromptId: '',
    answer: null,
    answeredByTaskId: null,
    answeredBySessionId: null,
    answerPromptId: null,
    createdAt: now,
    answeredAt: null,
    closedAt: null,
  };
  const child = { taskId: caller.id, title: caller.title, sessionId: session.id };
  const { queued } = await recordTaskPrompt(stores, {
    taskId: parent.id,
    author: taskAuthor(caller.id),
    text: parentPromptText(draft, child),
    metadata: { parent_question_id: draft.id, child_task_id: caller.id, child_session_id: session.id },
    now,
  });
  const question: ParentQuestion = { ...draft, parentPromptId: queued.id };
  await stores.messages.insert({
    id: question.messageId,
    taskId: caller.id,
    sessionId: session.id,
    type: 'parent_question',
    author: 'agent',
    content: questionMessageText(question),
    metadata: questionMessageMetadata(question),
    createdAt: now,
  });
  await stores.parentQuestions.insert(question);
  return { question, outcome: 'asked', kickSessionId: queued.sessionId };
}

/** A question already recorded: nothing new is written; its parent prompt is kicked again if it waits. */
async function existing(stores: Stores, question: ParentQuestion, outcome: AskOutcome): Promise<AskResult> {
  const prompt = await stores.promptQueue.findById(question.parentPromptId);
  const waiting = question.status === 'pending' && prompt !== undefined && prompt.status === 'queued';
  return { question, outcome, kickSessionId: waiting ? prompt.sessionId : null };
}
