import { stopTaskTool } from '@kandev/protocol';
import { newId } from '../../platform/store/row-values';
import type { RuntimeStopOutcome } from '../../runtime/session-control/runtime-session-control';
import { recordSessionStopped } from '../../runtime/session-control/session-stop';
import { taskAuthor } from '../../catalogue/messages/message';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import { assertNotCancelled, loadTarget, reply } from '../tool-calls/tool-scope';

// stop_task_kandev: halts a DIRECT subtask's agent. Its live sessions are asked to stop in agentctl
// (when the backend has a runtime control) and recorded 'cancelled' either way (their prompt in flight
// fails), so the dispatcher refuses their further tool calls; the stop and its reason are recorded on
// the subtask. Nothing is deleted: the subtask's board state and queued prompts stay (a resume drains
// them), and message_task_kandev gives it new instructions.

const STOP_TASK = stopTaskTool.name;

interface StoppedSession {
  session_id: string;
  runtime: RuntimeStopOutcome['status'] | 'not_attempted';
  reason?: string;
}

async function stopTask(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(stopTaskTool, args);
  const stores = deps.uow.read;
  const { caller, target } = await loadTarget(stores, context, {
    tool: STOP_TASK,
    scope: 'child',
    taskId: input.task_id,
  });
  const live = await stores.sessions.listLive(target.id);
  if (live.length === 0) {
    return reply(`Task ${target.id} has no running session; nothing to stop.`, {
      task_id: target.id,
      stopped_sessions: [],
      message_id: null,
    });
  }
  assertNotCancelled(context);
  const stopped: StoppedSession[] = [];
  for (const session of live) {
    const outcome = deps.runtimeSessions === undefined ? undefined : await deps.runtimeSessions.stop(session);
    stopped.push({
      session_id: session.id,
      runtime: outcome?.status ?? 'not_attempted',
      ...(outcome?.status === 'failed' ? { reason: outcome.reason } : {}),
    });
  }
  const messageId = newId();
  await deps.uow.transaction(async (trx) => {
    const now = deps.clock().toISOString();
    for (const session of live) await recordSessionStopped(trx, session.id, now);
    await trx.messages.insert({
      id: messageId,
      taskId: target.id,
      sessionId: null,
      type: 'task_stopped',
      author: taskAuthor(caller.id),
      content: input.reason ?? 'stopped by its parent task',
      metadata: { stopped_sessions: stopped.map((s) => s.session_id) },
      createdAt: now,
    });
  });
  // Questions those sessions were waiting on end now ('session_stopped'); their held calls return.
  await deps.questions.endForSessions(live.map((session) => session.id));
  deps.logger.info({ taskId: target.id, by: caller.id, sessions: stopped.length }, 'subtask stopped');
  const failed = stopped.filter((s) => s.runtime === 'failed').length;
  const note = failed === 0 ? '' : ` agentctl could not stop ${failed} of them; they are recorded cancelled.`;
  return reply(`Stopped task ${target.id}: ${stopped.length} session(s).${note}`, {
    task_id: target.id,
    stopped_sessions: stopped,
    message_id: messageId,
  });
}

export function createTaskStopToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return { [STOP_TASK]: (context, args) => stopTask(deps, context, args) };
}
