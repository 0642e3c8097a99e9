import { AppError } from '@kandev/protocol';
import type { AgentSession } from './agent-session';
import type { Stores } from '../../platform/store/unit-of-work';
import type { Task } from '../../catalogue/tasks/task';

/**
 * Who a tool call comes from: agentctl's session binding (the Attach request), never the agent's
 * arguments. A tool call's context is one.
 */
export interface CallBinding {
  readonly sessionId: string;
  /** The caller's own task (bound). Handlers resolve `"self"` and check targets against it. */
  readonly taskId: string;
  readonly workspaceId: string;
  /** The session row as loaded for this call. */
  readonly session: AgentSession;
}

/** The calling task, from the bound identity only; the database must agree with the binding. */
export async function loadCaller(stores: Stores, context: CallBinding): Promise<Task> {
  if (context.session.id !== context.sessionId || context.session.taskId !== context.taskId) {
    throw new AppError('permission_denied', "the call is not bound to its session's task");
  }
  const caller = await stores.tasks.findById(context.taskId);
  if (caller === undefined) throw new AppError('failed_precondition', `your task ${context.taskId} no longer exists`);
  if (caller.workspaceId !== context.workspaceId) {
    throw new AppError('permission_denied', "the call's workspace is not your task's workspace");
  }
  return caller;
}
