import { z } from 'zod';
import { AppError, type Provider, ProviderSchema, type TaskState, TaskStateSchema } from '@kandev/protocol';
import { IdSchema } from '../../platform/store/id-schema';

export interface Task {
  id: string;
  workspaceId: string;
  parentId: string | null;
  title: string;
  /** Longer text for people on the board; undefined is the same as null. */
  description?: string | null;
  state: TaskState;
  /** Fixed at creation: default false, never inherited from the parent, never updated. */
  autopilot: boolean;
  agentProfileId: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * What a task waits for from someone else: 'clarification' while it waits on a question (a parent
 * question or an operator question); null when nothing.
 */
export const PENDING_ACTIONS = ['clarification'] as const;
export type PendingAction = (typeof PENDING_ACTIONS)[number];

/** A repository attached (or to attach) to a task, with the branch work starts from. */
export interface TaskAttachment {
  repositoryId: string;
  baseBranch: string | null;
}

/** A task with the repositories attached to it (in attach order), their stored providers, what it waits for. */
export interface TaskDetails {
  task: Task;
  repositoryIds: string[];
  providers: Provider[];
  pendingAction: PendingAction | null;
}

const TitleSchema = z.string().trim().min(1).max(500);

export const CreateTaskBodySchema = z
  .object({
    workspace_id: IdSchema,
    title: TitleSchema,
    parent_id: IdSchema.nullable().optional(),
    autopilot: z.boolean().optional(),
    repository_ids: z.array(IdSchema).max(100).optional(),
    agent_profile_id: IdSchema.optional(),
  })
  .strict();
export type CreateTaskBody = z.infer<typeof CreateTaskBodySchema>;

/** What a task is created from: the REST body, or create_task_kandev, which may also set a description. */
export interface NewTask extends CreateTaskBody {
  description?: string;
}

/**
 * An autopilot task asks its parent through MCP tools, so its agent must be able to receive them.
 * No profile means the default (no agent command; the session serves MCP), which qualifies.
 */
export function assertProfileFitsAutopilot(
  autopilot: boolean,
  profile: { id: string; name: string; supportsMcp: boolean } | undefined,
): void {
  if (autopilot && profile !== undefined && !profile.supportsMcp) {
    throw new AppError(
      'invalid_argument',
      `agent profile ${profile.name} cannot receive the MCP tool set (supports_mcp is false); an autopilot task ` +
        'needs it: pick another profile or create the task without autopilot',
      { agent_profile_id: profile.id },
    );
  }
}

export const UpdateTaskBodySchema = z
  .object({
    title: TitleSchema.optional(),
    parent_id: IdSchema.nullable().optional(),
    /** An operator's move on the board; task-state-change.ts says which moves are allowed. */
    state: TaskStateSchema.optional(),
  })
  .strict();
export type UpdateTaskBody = z.infer<typeof UpdateTaskBodySchema>;

/** `autopilot` is decided once, at creation; an update that mentions it is rejected as a whole. */
export function rejectImmutableTaskFields(body: unknown): void {
  if (typeof body === 'object' && body !== null && Object.hasOwn(body, 'autopilot')) {
    throw new AppError('invalid_argument', 'autopilot is fixed at task creation', { field: 'autopilot' });
  }
}

/** GET /api/tasks/:id (the schema documents it in GET /api/openapi.json). */
export const TaskViewSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    parent_id: z.string().nullable(),
    title: z.string(),
    state: TaskStateSchema,
    autopilot: z.boolean(),
    pending_action: z.enum(PENDING_ACTIONS).nullable(),
    repository_ids: z.array(z.string()),
    providers: z.array(ProviderSchema),
    /** Set by DELETE /api/tasks/:id; an archived task is read-only. */
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict()
  .meta({ id: 'Task' });
export type TaskView = z.infer<typeof TaskViewSchema>;

/**
 * What a board card badges, read for a whole page at once (GET /api/tasks items): the task's newest
 * session (its state and last error) and how many questions wait on the task.
 */
export const TaskAttentionSchema = z
  .object({
    latest_session: z
      .object({ id: z.string(), state: z.string(), last_error: z.string().nullable(), updated_at: z.string() })
      .nullable()
      .describe('the newest session (creation order), null when none was launched'),
    failed: z.boolean().describe('the newest session is `failed`'),
    pending_questions: z
      .number()
      .int()
      .describe('operator questions pending and unexpired plus parent questions pending'),
  })
  .strict()
  .meta({ id: 'TaskAttention' });
export type TaskAttention = z.infer<typeof TaskAttentionSchema>;

/** GET /api/tasks items: the task view plus `attention`. */
export const TaskListItemViewSchema = TaskViewSchema.extend({ attention: TaskAttentionSchema })
  .strict()
  .meta({ id: 'TaskListItem' });
export type TaskListItemView = z.infer<typeof TaskListItemViewSchema>;

export function toTaskView({ task, repositoryIds, providers, pendingAction }: TaskDetails): TaskView {
  return {
    id: task.id,
    workspace_id: task.workspaceId,
    parent_id: task.parentId,
    title: task.title,
    state: task.state,
    autopilot: task.autopilot,
    pending_action: pendingAction,
    repository_ids: repositoryIds,
    providers,
    archived_at: task.archivedAt,
    created_at: task.createdAt,
    updated_at: task.updatedAt,
  };
}

/** An archived task is read-only. */
export function assertWritable(task: Task): void {
  if (task.archivedAt !== null) throw new AppError('failed_precondition', `task ${task.id} is archived`);
}
