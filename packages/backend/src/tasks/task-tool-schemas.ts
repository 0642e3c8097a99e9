import { z } from 'zod';
import { IdSchema } from '../store/id-schema';
import { MAX_PAGE_LIMIT } from '../store/page-cursor';
import { WorkspaceSourceSchema } from '../workspace-sources/workspace-source';
import { TaskStateSchema } from './task';

// The backend's own strict schemas for the task tools: the same shapes agentctl advertises
// (packages/agentctl/src/tools/task-tools.ts and friends), re-validated here because discovery is not
// a security boundary. Where they differ, the backend is the stricter one (states are the real task
// states, ids and texts are bounded, blank prompts are refused).

const Title = z.string().trim().min(1).max(60);
const Text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((text) => text.trim().length > 0, 'must not be blank');
const PageLimit = z.number().int().min(1).max(MAX_PAGE_LIMIT).optional();
const PageCursor = z.string().min(1).max(512).optional();
/** Omitted (or "self"): the caller's own task. */
const TargetTaskId = IdSchema.optional();

export const MAX_PROMPT_LENGTH = 100_000;
export const MAX_DESCRIPTION_LENGTH = 20_000;
export const MAX_SOURCES_PER_TOOL_CALL = 20;

export const ListTasksArgsSchema = z
  .object({
    parent_id: IdSchema.optional(),
    state: TaskStateSchema.optional(),
    include_archived: z.boolean().optional(),
    limit: PageLimit,
    cursor: PageCursor,
  })
  .strict();

export const GetTaskArgsSchema = z.object({ task_id: TargetTaskId }).strict();

export const CreateTaskArgsSchema = z
  .object({
    title: Title,
    prompt: Text(MAX_PROMPT_LENGTH).optional(),
    description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
    parent_id: IdSchema.optional(),
    autopilot: z.boolean().optional(),
    agent_profile_id: IdSchema.optional(),
    start_agent: z.boolean().optional(),
  })
  .strict();

export const UpdateTaskArgsSchema = z
  .object({
    task_id: TargetTaskId,
    title: Title.optional(),
    description: z.string().max(MAX_DESCRIPTION_LENGTH).optional(),
    state: TaskStateSchema.optional(),
  })
  .strict()
  .refine((v) => v.title !== undefined || v.description !== undefined || v.state !== undefined, {
    message: 'set at least one of title, description or state',
  });

export const MessageTaskArgsSchema = z
  .object({
    task_id: IdSchema,
    prompt: Text(MAX_PROMPT_LENGTH),
    reply_to_question_id: IdSchema.optional(),
  })
  .strict();

export const StopTaskArgsSchema = z.object({ task_id: IdSchema, reason: Text(500).optional() }).strict();

export const AddWorkspaceSourcesArgsSchema = z
  .object({
    task_id: TargetTaskId,
    sources: z.array(WorkspaceSourceSchema).min(1).max(MAX_SOURCES_PER_TOOL_CALL),
  })
  .strict();

export const ListTaskSessionsArgsSchema = z.object({ task_id: TargetTaskId }).strict();

export const GetTaskConversationArgsSchema = z
  .object({ task_id: TargetTaskId, cursor: PageCursor, limit: PageLimit })
  .strict();

export const StepCompleteArgsSchema = z
  .object({ summary: Text(4000), handoff: z.string().max(4000).optional() })
  .strict();

export const SetTaskTitleArgsSchema = z.object({ title: Title }).strict();
