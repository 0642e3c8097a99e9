import { AppError, type Surface } from '@kandev/protocol';

// Pure: who may call which tool on which task. The bound identity (the caller's session and task)
// always wins; a task id in the arguments is only ever a TARGET, checked here. Discovery (agentctl's
// tool table) is not a security boundary, so the surfaces are checked again too.

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

const KANBAN: readonly Surface[] = ['kanban_task'];
const TASK_SURFACES: readonly Surface[] = ['kanban_task', 'office_task'];
const CONFIGURATION: readonly Surface[] = ['configuration'];

/** The surfaces each tool is served on (agentctl's tool table, re-checked on every call). */
export const TOOL_SURFACES: Readonly<Record<string, readonly Surface[]>> = {
  list_tasks_kandev: KANBAN,
  get_task_kandev: TASK_SURFACES,
  create_task_kandev: KANBAN,
  update_task_kandev: KANBAN,
  message_task_kandev: TASK_SURFACES,
  stop_task_kandev: KANBAN,
  add_workspace_sources_kandev: KANBAN,
  list_task_sessions_kandev: KANBAN,
  get_task_conversation_kandev: KANBAN,
  step_complete_kandev: TASK_SURFACES,
  list_workspaces_kandev: CONFIGURATION,
  list_repositories_kandev: CONFIGURATION,
  list_agent_profiles_kandev: CONFIGURATION,
};

/** set_task_title_kandev is served to a session that owns its task title, on any surface. */
export const TITLE_TOOL = 'set_task_title_kandev';

export function assertServedTo(tool: string, session: { surface: Surface; ownsTaskTitle: boolean }): void {
  if (tool === TITLE_TOOL) {
    if (session.ownsTaskTitle) return;
    throw new AppError('permission_denied', `${tool} is only served to a session that owns its task title`);
  }
  const surfaces = TOOL_SURFACES[tool];
  if (surfaces?.includes(session.surface) === true) return;
  throw new AppError('permission_denied', `${tool} is not served on the ${session.surface} surface`);
}
