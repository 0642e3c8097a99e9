import { getTaskConversationTool, messageTaskTool, stepCompleteTool } from '@kandev/protocol';
import { supersedePendingQuestions } from '../../runtime/parent-questions/parent-question-lifecycle';
import { replyToParentQuestion } from '../../runtime/parent-questions/parent-question-reply';
import { newId } from '../../platform/store/row-values';
import { assertNotCancelled, loadTarget, reply } from '../tool-calls/tool-scope';
import { assertWritable } from '../../catalogue/tasks/task';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import { readConversation } from '../../catalogue/messages/conversation';
import { type Message, taskAuthor, toMessageView } from '../../catalogue/messages/message';
import { recordTaskPrompt } from '../../runtime/prompt-queue/task-prompt';

// Messaging: prompts to a task's agent (your own task or a direct subtask), step completion on your
// own task, and reading a conversation of your workspace.

const MESSAGE_TASK = messageTaskTool.name;
const STEP_COMPLETE = stepCompleteTool.name;
const GET_TASK_CONVERSATION = getTaskConversationTool.name;

async function messageTask(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(messageTaskTool, args);
  assertNotCancelled(context);
  if (input.reply_to_question_id !== undefined) {
    return replyToQuestion(deps, context, { ...input, reply_to_question_id: input.reply_to_question_id });
  }
  const now = deps.clock().toISOString();
  const { target, queued, message, superseded } = await deps.uow.transaction(async (stores) => {
    const request = { tool: MESSAGE_TASK, scope: 'own_or_child' as const, taskId: input.task_id };
    const { caller, target } = await loadTarget(stores, context, request);
    assertWritable(target);
    const recorded = await recordTaskPrompt(stores, {
      taskId: target.id,
      author: taskAuthor(caller.id),
      text: input.prompt,
      metadata: { from_session_id: context.sessionId },
      now,
    });
    // New explicit input from another task (its parent): a question the target still waits on is
    // superseded in this transaction. A note to self is not an answer; the gate holds it like any prompt.
    const superseded =
      target.id === caller.id ? [] : await supersedePendingQuestions(stores, target.id, 'task_message', now);
    return { target, superseded, ...recorded };
  });
  if (queued.sessionId !== null) void deps.prompts.kick(queued.sessionId);
  const where = queued.sessionId === null ? 'its next session' : `session ${queued.sessionId}`;
  const note = superseded.length === 0 ? '' : ` It supersedes its pending question ${superseded.join(', ')}.`;
  return reply(`Queued for task ${target.id} (${where}); it runs when the current turn ends.${note}`, {
    task_id: target.id,
    message_id: message.id,
    queued_prompt_id: queued.id,
    session_id: queued.sessionId,
    status: queued.status,
    superseded_question_ids: superseded,
  });
}

/** The correlated answer to a child's parent question: accepted once, else refused with nothing sent. */
async function replyToQuestion(
  deps: ToolHandlerDeps,
  context: ToolCallContext,
  input: { task_id: string; prompt: string; reply_to_question_id: string },
): Promise<ToolReply> {
  const now = deps.clock().toISOString();
  const result = await deps.uow.transaction(async (stores) => {
    const request = { tool: MESSAGE_TASK, scope: 'own_or_child' as const, taskId: input.task_id };
    const { caller, target } = await loadTarget(stores, context, request);
    const questionId = input.reply_to_question_id;
    const callerSessionId = context.sessionId;
    return replyToParentQuestion(stores, { questionId, caller, callerSessionId, target, answer: input.prompt, now });
  });
  if (result.kind === 'rejected') throw result.error;
  const { question } = result;
  if (result.kind === 'already_answered') {
    return reply(
      `Question ${question.id} was already answered (at ${question.answeredAt ?? 'an earlier time'}); ` +
        'nothing was sent again.',
      {
        task_id: question.childTaskId,
        question_id: question.id,
        status: 'already_answered',
        answered_at: question.answeredAt,
        queued_prompt_id: question.answerPromptId,
      },
    );
  }
  const { queued, message } = result;
  deps.parentAnswers?.answered(question.id, input.prompt);
  if (queued.sessionId !== null) void deps.prompts.kick(queued.sessionId);
  deps.logger.info({ questionId: question.id, childTaskId: question.childTaskId }, 'parent question answered');
  return reply(
    `Answer to question ${question.id} accepted; it is the next turn of task ${question.childTaskId} ` +
      `(session ${question.childSessionId}).`,
    {
      task_id: question.childTaskId,
      question_id: question.id,
      status: 'answered',
      message_id: message.id,
      queued_prompt_id: queued.id,
      session_id: queued.sessionId,
    },
  );
}

async function stepComplete(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(stepCompleteTool, args);
  assertNotCancelled(context);
  const message = await deps.uow.transaction(async (stores) => {
    const { target } = await loadTarget(stores, context, { tool: STEP_COMPLETE, scope: 'own', taskId: undefined });
    assertWritable(target);
    const recorded: Message = {
      id: newId(),
      taskId: target.id,
      sessionId: context.sessionId,
      type: 'step_complete',
      author: 'agent',
      content: input.summary,
      metadata: input.handoff === undefined ? {} : { handoff: input.handoff },
      createdAt: deps.clock().toISOString(),
    };
    await stores.messages.insert(recorded);
    return recorded;
  });
  return reply(`Step complete recorded on task ${message.taskId}.`, {
    task_id: message.taskId,
    message_id: message.id,
  });
}

async function getTaskConversation(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown) {
  const input = parseToolArgs(getTaskConversationTool, args);
  const stores = deps.uow.read;
  const request = { tool: GET_TASK_CONVERSATION, scope: 'workspace' as const, taskId: input.task_id };
  const { target } = await loadTarget(stores, context, request);
  const page = await readConversation(stores, target.id, input);
  const lines = page.items.map((m) => `[${m.createdAt}] ${m.author} (${m.type}): ${m.content}`);
  const more = page.nextCursor === null ? '' : '\nMore: pass next_cursor.';
  const text = lines.length === 0 ? `Task ${target.id} has no messages.` : `${lines.join('\n')}${more}`;
  return reply(text, { task_id: target.id, messages: page.items.map(toMessageView), next_cursor: page.nextCursor });
}

export function createMessageToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return {
    [MESSAGE_TASK]: (context, args) => messageTask(deps, context, args),
    [STEP_COMPLETE]: (context, args) => stepComplete(deps, context, args),
    [GET_TASK_CONVERSATION]: (context, args) => getTaskConversation(deps, context, args),
  };
}
