import type { Provider, TaskState } from '@kandev/protocol';
import type { AgentSession, AgentSessionState } from '../../runtime/sessions/agent-session';
import type { PendingAction, Task, TaskDetails } from '../../catalogue/tasks/task';

// Pure: what the task tools hand back as `structured` JSON (snake_case, no tokens or hashes).

export interface TaskSummaryView {
  id: string;
  parent_id: string | null;
  title: string;
  state: TaskState;
  autopilot: boolean;
  /** 'clarification' while the task waits on a question (a parent's or the operator's answer). */
  pending_action: PendingAction | null;
  archived: boolean;
  created_at: string;
  updated_at: string;
}

export interface TaskToolView extends TaskSummaryView {
  workspace_id: string;
  description: string | null;
  agent_profile_id: string | null;
  repository_ids: string[];
  providers: Provider[];
}

export interface SessionToolView {
  id: string;
  state: AgentSessionState;
  surface: string;
  executor: string;
  revision: number;
  applied_revision: number;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export function toTaskSummaryView(task: Task, pendingAction: PendingAction | null): TaskSummaryView {
  return {
    id: task.id,
    parent_id: task.parentId,
    title: task.title,
    state: task.state,
    autopilot: task.autopilot,
    pending_action: pendingAction,
    archived: task.archivedAt !== null,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}

export function toTaskToolView({ task, repositoryIds, providers, pendingAction }: TaskDetails): TaskToolView {
  return {
    ...toTaskSummaryView(task, pendingAction),
    workspace_id: task.workspaceId,
    description: task.description ?? null,
    agent_profile_id: task.agentProfileId,
    repository_ids: repositoryIds,
    providers,
  };
}

export function toSessionToolView(session: AgentSession): SessionToolView {
  return {
    id: session.id,
    state: session.state,
    surface: session.surface,
    executor: session.executor,
    revision: session.revision,
    applied_revision: session.appliedRevision,
    last_error: session.lastError,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}

/** One line per task for the model: `<id> [state, autopilot, waiting for clarification] title`. */
export function describeTasks(tasks: readonly TaskSummaryView[]): string {
  return tasks.map((task) => `${task.id} [${describeFlags(task)}] ${task.title}`).join('\n');
}

export function describeFlags(task: Pick<TaskSummaryView, 'state' | 'autopilot' | 'pending_action'>): string {
  const flags: string[] = [task.state];
  if (task.autopilot) flags.push('autopilot');
  if (task.pending_action !== null) flags.push(`waiting for ${task.pending_action}`);
  return flags.join(', ');
}
