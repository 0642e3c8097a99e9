import { AppError } from '@kandev/protocol';
import type { Stores } from '../../platform/store/unit-of-work';
import type { ToolCallContext, ToolReply } from './tool-handler';
import type { Task } from '../../catalogue/tasks/task';
import { loadCaller } from '../../runtime/sessions/task-binding';
import { assertTargetAllowed, relationOf, type TargetScope } from './task-tool-access';

// What every task-related tool handler does after parsing its arguments: resolve the caller (from the
// binding) and the target. Whether the session is served the tool at all, the dispatcher checked first.

/** `undefined` or "self" name the caller's own task. */
export function resolveTaskId(taskId: string | undefined, caller: Task): string {
  return taskId === undefined || taskId === 'self' ? caller.id : taskId;
}

/** The caller and the target task the arguments name, checked against the tool's target scope. */
export async function loadTarget(
  stores: Stores,
  context: ToolCallContext,
  request: { tool: string; scope: TargetScope; taskId: string | undefined },
): Promise<{ caller: Task; target: Task }> {
  const caller = await loadCaller(stores, context);
  const id = resolveTaskId(request.taskId, caller);
  const target = id === caller.id ? caller : await stores.tasks.findById(id);
  if (target === undefined) throw new AppError('not_found', `task ${id} not found`);
  const relation = relationOf({ taskId: caller.id, workspaceId: caller.workspaceId }, target);
  assertTargetAllowed(request.tool, request.scope, relation, target.id);
  return { caller, target };
}

/** A cancelled call writes nothing more. */
export function assertNotCancelled(context: ToolCallContext): void {
  if (context.signal.aborted) throw new AppError('unavailable', 'the call was cancelled; nothing was written');
}

export function reply(text: string, structured: Record<string, unknown>): ToolReply {
  return { text, structured };
}
