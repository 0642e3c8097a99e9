import { AppError } from '@kandev/protocol';

/** What the service knows about a proposed new parent when a task is created or reparented. */
export interface ParentCandidate {
  id: string;
  workspaceId: string;
  /** The candidate and its ancestors, nearest first (the candidate itself at index 0). */
  lineage: readonly string[];
}

/**
 * A parent must be in the task's workspace and must not be the task itself or one of its
 * descendants (that would close a cycle). `taskId` is undefined for a task being created.
 */
export function assertValidParent(
  task: { id: string | undefined; workspaceId: string },
  candidate: ParentCandidate,
): void {
  if (candidate.workspaceId !== task.workspaceId) {
    throw new AppError('invalid_argument', 'parent task belongs to another workspace', { parent_id: candidate.id });
  }
  if (task.id === undefined) return;
  if (candidate.id === task.id) {
    throw new AppError('invalid_argument', 'a task cannot be its own parent', { parent_id: candidate.id });
  }
  if (candidate.lineage.includes(task.id)) {
    throw new AppError('invalid_argument', 'parent task is a descendant of this task (cycle)', {
      parent_id: candidate.id,
    });
  }
}
