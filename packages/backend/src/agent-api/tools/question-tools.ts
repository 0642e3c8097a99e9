import { askUserQuestionTool } from '@kandev/protocol';
import { assertNotCancelled } from '../tool-calls/tool-scope';
import { loadCaller } from '../../runtime/sessions/task-binding';
import { assertWritable } from '../../catalogue/tasks/task';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import { describeAnswers, type Question } from '../../runtime/questions/question';

// ask_user_question_kandev: records a pending question and holds the call open (the dispatcher's
// heartbeats keep agentctl's inactivity timeout from firing) until the operator answers over REST, the
// question times out, the session stops or the call's channel drops.

function toReply(question: Question): ToolReply {
  if (question.state === 'answered') {
    return {
      text: `The operator answered question ${question.id}:\n${describeAnswers(question)}`,
      structured: { status: 'answered', question_id: question.id, answers: question.answers ?? [] },
    };
  }
  const reason = question.closedReason ?? (question.state === 'expired' ? 'timeout' : 'cancelled');
  return {
    text:
      `The operator did not answer question ${question.id} (${reason}). ` +
      'Continue with your best judgment and say which assumption you made.',
    structured: { status: 'not_answered', reason, question_id: question.id },
  };
}

async function askUserQuestion(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(askUserQuestionTool, args);
  const caller = await loadCaller(deps.uow.read, context);
  assertWritable(caller);
  assertNotCancelled(context);
  const question = await deps.questions.ask({
    taskId: caller.id,
    sessionId: context.sessionId,
    callId: context.callId,
    args: input,
    signal: context.signal,
    onRecorded: (recorded) => context.reportProgress(`question ${recorded.id} is waiting for the operator's answer`),
  });
  return toReply(question);
}

export function createQuestionToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return { [askUserQuestionTool.name]: (context, args) => askUserQuestion(deps, context, args) };
}
