import { AppError } from '@kandev/protocol';

// Pure: which task a tool may act on. The bound identity (the caller's session and task) always wins;
// a task id in the arguments is only ever a TARGET, checked here. Whether the session is served the tool
// at all is the catalogue's check (assertToolServed in @kandev/protocol), made by the dispatcher.

/** How a target task relates to the calling task. */
export type TaskRelation = 'self' | 'child' | 'workspace' | 'foreign';

export function relationOf(
  caller: { taskId: string; workspaceId: string },
  target: { id: string; parentId: string | null; workspaceId: string },
): TaskRelation {
  if (target.workspaceId !== caller.workspaceId) return 'foreign';
  if (target.id === caller.taskId) return 'self';
  if (target.parentId === caller.taskId) return 'child';
  return 'workspace';
}

/** Which targets a tool may act on. */
export type TargetScope = 'own' | 'own_or_child' | 'child' | 'workspace';

const ALLOWED: Record<TargetScope, readonly TaskRelation[]> = {
  own: ['self'],
  own_or_child: ['self', 'child'],
  child: ['child'],
  workspace: ['self', 'child', 'workspace'],
};

const RULE: Record<TargetScope, string> = {
  own: 'acts on your own task only',
  own_or_child: 'acts on your own task or your direct subtasks only',
  child: 'acts on your direct subtasks only',
  workspace: "reads tasks of your own task's workspace only",
};

const WHAT: Record<TaskRelation, string> = {
  self: 'your own task',
  child: 'a direct subtask of yours',
  workspace: 'not your task nor a direct subtask of yours',
  foreign: 'in another workspace',
};

export function assertTargetAllowed(tool: string, scope: TargetScope, relation: TaskRelation, targetId: string): void {
  if (ALLOWED[scope].includes(relation)) return;
  throw new AppError('permission_denied', `${tool} ${RULE[scope]}; task ${targetId} is ${WHAT[relation]}`, {
    task_id: targetId,
  });
}
