import { askParentQuestionTool } from '@kandev/protocol';
import { assertNotCancelled } from '../tool-calls/tool-scope';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import type { ParentQuestion } from '../../runtime/parent-questions/parent-question';
import { type AskOutcome, askParentQuestion, precheckAsk } from '../../runtime/parent-questions/parent-question-ask';

// ask_parent_question_kandev: never holds the call open. The question is recorded, the child gated and
// the parent's prompt queued in one transaction; the call returns at once and tells the agent to end its
// turn. The answer comes back as the child's next turn (message_task_kandev with reply_to_question_id).

/** What the agent is told: wait by ending the turn, or (a retry of a settled question) what happened. */
export function toAskReply(question: ParentQuestion, outcome: AskOutcome): ToolReply {
  const base = { question_id: question.id, parent_task_id: question.parentTaskId, outcome };
  if (question.status === 'pending') {
    const already =
      outcome === 'already_pending'
        ? `You already have a pending question (${question.id}); this call asked nothing new. `
        : '';
    return {
      text:
        `${already}Question ${question.id} is waiting for your parent task ${question.parentTaskId} ` +
        '(status waiting_for_parent). End your turn now; do not wait or poll. The answer arrives later as a new ' +
        'message and starts your next turn.',
      structured: { ...base, status: 'waiting_for_parent' },
    };
  }
  const settled =
    question.status === 'answered'
      ? `Question ${question.id} was answered already; the answer is delivered to you as a message.`
      : `Question ${question.id} is ${question.status} (${question.closedReason ?? 'unknown'}) and will not be ` +
        'answered. Continue with your best judgment and state the assumptions you make.';
  return { text: settled, structured: { ...base, status: question.status } };
}

async function askParent(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(askParentQuestionTool, args);
  assertNotCancelled(context);
  const result = await askParentQuestion(deps.uow, deps.clock, context, input);
  if (result.kickSessionId !== null) void deps.prompts.kick(result.kickSessionId);
  deps.logger.info(
    { questionId: result.question.id, childTaskId: context.taskId, outcome: result.outcome },
    'parent question asked',
  );
  return toAskReply(result.question, result.outcome);
}

export function createParentQuestionToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  // A root or a normal task learns why first (before the served check); nothing is written.
  const handler = (context: ToolCallContext, args: unknown) => askParent(deps, context, args);
  return { [askParentQuestionTool.name]: Object.assign(handler, { precheck: precheckOf(deps) }) };
}

function precheckOf(deps: ToolHandlerDeps) {
  return (context: ToolCallContext) => precheckAsk(deps.uow.read, context);
}
