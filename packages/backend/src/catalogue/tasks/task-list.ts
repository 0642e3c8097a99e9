import { z } from 'zod';
import { MAX_PAGE_LIMIT, ProviderSchema, type Provider, TASK_STATES, type TaskState } from '@kandev/protocol';
import { IdSchema } from '../../platform/store/id-schema';
import { decodeCursor } from '../../platform/store/page-cursor';
import { AppError } from '@kandev/protocol';

// GET /api/tasks: the query (sort, search, filters), its keyset cursor, and how the filter narrows the
// tasks query. Every order ends on the id, so a page boundary inside equal timestamps never repeats
// or skips a task.

/** `created_desc` (the default) shows the newest task first. */
export const TASK_SORTS = ['created_desc', 'created_asc', 'updated_desc', 'updated_asc'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

const flag = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

/** `state=todo,in_progress`: one state or several, comma-separated. */
const StatesSchema = z
  .string()
  .max(200)
  .transform((raw) => raw.split(',').map((part) => part.trim()))
  .pipe(z.array(z.enum(TASK_STATES)).min(1))
  .optional();

export const ListTasksQuerySchema = z
  .object({
    workspace_id: IdSchema,
    parent_id: IdSchema.optional(),
    include_archived: flag,
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
    cursor: z.string().min(1).max(512).optional(),
    sort: z.enum(TASK_SORTS).optional().describe('default `created_desc` (newest first)'),
    q: z.string().trim().min(1).max(200).optional().describe('title contains this text, case-insensitive'),
    state: StatesSchema.describe('one state or several, comma-separated'),
    autopilot: flag,
    provider: ProviderSchema.optional().describe('a repository attached to the task has this provider'),
    pending_question: flag.describe('`true`: the task waits on a pending operator or parent question'),
    failed: flag.describe("`true`: the task's newest session is `failed`"),
  })
  .strict();
export type ListTasksQuery = z.infer<typeof ListTasksQuerySchema>;

/** Where the previous page ended: its last task's sort value and id, under the sort it was read in. */
export interface TaskPosition {
  at: string;
  id: string;
}

const TaskCursorSchema = z.object({ s: z.enum(TASK_SORTS), c: z.string().min(1), i: z.string().min(1) }).strict();

export function taskCursorPosition(sort: TaskSort, cursor: string): TaskPosition {
  const decoded = decodeCursor(TaskCursorSchema, cursor);
  if (decoded.s !== sort) {
    throw new AppError('invalid_argument', `cursor was returned for sort=${decoded.s}; pass the same sort`, {
      field: 'cursor',
    });
  }
  return { at: decoded.c, id: decoded.i };
}

export function taskCursorOf(sort: TaskSort, task: { createdAt: string; updatedAt: string; id: string }) {
  return { s: sort, c: sort.startsWith('created') ? task.createdAt : task.updatedAt, i: task.id };
}

/** What TaskStore.list narrows by (the store turns it into SQL). */
export interface TaskListFilter {
  workspaceId: string;
  parentId?: string;
  states?: readonly TaskState[];
  includeArchived: boolean;
  autopilot?: boolean;
  provider?: Provider;
  /** Lower-cased text the title must contain. */
  titleContains?: string;
  pendingQuestion?: boolean;
  failed?: boolean;
  /** Operator questions expire: pending means not expired at `now`. */
  now: string;
  sort: TaskSort;
  after?: TaskPosition;
  limit: number;
}

/** `text` as a LIKE pattern that matches it literally anywhere (escape character `\`). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
