import { z } from 'zod';

/** A task's board state. Shared: the task tools' inputs name them, the backend stores them. */
export const TASK_STATES = ['todo', 'in_progress', 'review', 'done'] as const;
export type TaskState = (typeof TASK_STATES)[number];
export const TaskStateSchema = z.enum(TASK_STATES);

/** The largest page any list (REST or tool) returns. */
export const MAX_PAGE_LIMIT = 200;
