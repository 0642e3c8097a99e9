import { AppError, type TaskState } from '@kandev/protocol';

// Pure: which board state an operator may move a task to (PATCH /api/tasks/:id {"state"}). Agents set
// states through update_task_kandev; this table is only the operator's door.

/**
 * Every move an operator may make. Work goes forward (todo → in_progress → review → done), may step
 * back one stage, and may be closed (→ done) or reopened (done → todo | in_progress) at once. Refused:
 * a review of work that never started (todo → review), skipping back over the work (review → todo), and
 * reviewing a closed task again without reopening it (done → review).
 */
export const TASK_STATE_TRANSITIONS = {
  todo: ['in_progress', 'done'],
  in_progress: ['todo', 'review', 'done'],
  review: ['in_progress', 'done'],
  done: ['todo', 'in_progress'],
} as const satisfies Record<TaskState, readonly TaskState[]>;

export type TaskStateDecision =
  | { kind: 'unchanged' }
  | { kind: 'move'; from: TaskState; to: TaskState }
  | { kind: 'refused'; from: TaskState; to: TaskState; allowed: readonly TaskState[] };

/** The same state is no change (no event); a move the table lists is made; anything else is refused. */
export function decideTaskStateChange(from: TaskState, to: TaskState): TaskStateDecision {
  if (from === to) return { kind: 'unchanged' };
  const allowed: readonly TaskState[] = TASK_STATE_TRANSITIONS[from];
  return allowed.includes(to) ? { kind: 'move', from, to } : { kind: 'refused', from, to, allowed };
}

/** The 409 a refused move answers with, naming both states and where the task may go instead. */
export function refusedStateChange(taskId: string, decision: Extract<TaskStateDecision, { kind: 'refused' }>) {
  return new AppError(
    'failed_precondition',
    `task ${taskId} cannot move from ${decision.from} to ${decision.to}; from ${decision.from} it may move to ` +
      decision.allowed.join(', '),
    { from: decision.from, to: decision.to, allowed: [...decision.allowed] },
  );
}
