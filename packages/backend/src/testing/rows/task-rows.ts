// A task row as store-level tests seed it: a plain todo task with no parent, profile or archive date.
// Overrides name only what a test is about.
import type { Task } from '../../catalogue/tasks/task';

export function taskRow(id: string, workspaceId: string, at: string, overrides: Partial<Task> = {}): Task {
  return {
    id,
    workspaceId,
    parentId: null,
    title: id,
    state: 'todo',
    autopilot: false,
    agentProfileId: null,
    archivedAt: null,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}
