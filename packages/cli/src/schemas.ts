import { z } from 'zod';

// The backend's answers as the CLI relies on them (docs/rest-api.md). Loose objects: fields the CLI
// does not read are kept, so `--json` prints everything the backend sent.

const id = z.string().min(1);
const nullableString = z.string().nullable();

export const WorkspaceSchema = z.looseObject({ id, name: z.string(), created_at: z.string() });
export type Workspace = z.infer<typeof WorkspaceSchema>;

export const RepositorySchema = z.looseObject({
  id,
  workspace_id: id,
  name: z.string(),
  provider: nullableString,
  remote_url: nullableString,
  local_path: nullableString,
  created_at: z.string(),
});
export type Repository = z.infer<typeof RepositorySchema>;

export const TaskSchema = z.looseObject({
  id,
  workspace_id: id,
  parent_id: nullableString,
  title: z.string(),
  state: z.string(),
  autopilot: z.boolean(),
  pending_action: nullableString,
  repository_ids: z.array(z.string()),
  providers: z.array(z.string()),
  archived_at: nullableString.optional(),
  created_at: z.string(),
});
export type Task = z.infer<typeof TaskSchema>;

export const SessionSummarySchema = z.looseObject({
  id,
  task_id: id,
  state: z.string(),
  executor: z.string(),
  revision: z.number(),
  applied_revision: z.number(),
  created_at: z.string(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SessionSchema = SessionSummarySchema.extend({
  last_error: nullableString,
  tools: z.array(z.string()).nullable(),
  mcp_url: nullableString,
  agent: z
    .looseObject({
      status: z.string(),
      pid: z.number().nullable(),
      // What the agent's handshake set up (absent from an older backend).
      mode_id: nullableString.optional(),
      system_prompt_delivery: z.string().optional(),
      mcp_connected: z.boolean().optional(),
    })
    .nullable(),
});
export type Session = z.infer<typeof SessionSchema>;

export const ProfileSchema = z.looseObject({
  id,
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()).optional(),
  supports_mcp: z.boolean(),
  permission_policy: z.string().optional(),
  created_at: z.string().optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const LaunchedSchema = z.looseObject({
  session_id: id,
  mcp_url: z.string(),
  mcp_token: z.string(),
  launch_config: z.looseObject({
    task_id: id,
    providers: z.array(z.string()),
    question_capability: z.string(),
    revision: z.number(),
    agent: z.looseObject({ command: z.string() }).nullable(),
  }),
});

export const QueuedPromptSchema = z.looseObject({ queued_prompt_id: id, message_id: id, status: z.string() });

export const OptionSchema = z.looseObject({ label: z.string(), description: z.string().optional() });
export const QuestionItemSchema = z.looseObject({
  id: z.string().optional(),
  prompt: z.string(),
  title: z.string().optional(),
  options: z.array(OptionSchema).optional(),
});
export type QuestionItem = z.infer<typeof QuestionItemSchema>;

export const QuestionSchema = z.looseObject({
  id,
  task_id: id,
  session_id: nullableString,
  state: z.string(),
  questions: z.array(QuestionItemSchema),
  context: nullableString.optional(),
  answers: z.array(z.looseObject({ question_index: z.number() })).nullable(),
  created_at: z.string(),
  expires_at: nullableString.optional(),
});
export type Question = z.infer<typeof QuestionSchema>;

export const ParentQuestionSchema = z.looseObject({
  id,
  child_task_id: id,
  parent_task_id: nullableString,
  status: z.string(),
  questions: z.array(QuestionItemSchema),
  context: nullableString.optional(),
});
export type ParentQuestion = z.infer<typeof ParentQuestionSchema>;

export const ToolsSchema = z.looseObject({
  session_id: id,
  revision: z.number(),
  applied_revision: z.number(),
  providers: z.array(z.string()),
  question_capability: z.string(),
  tools: z.array(z.looseObject({ name: z.string(), description: z.string(), input_schema: z.unknown() })),
  agentctl: z.looseObject({ reachable: z.boolean() }),
});
export type Tools = z.infer<typeof ToolsSchema>;

export const MessageSchema = z.looseObject({
  id,
  task_id: id,
  session_id: nullableString,
  type: z.string(),
  author: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type Message = z.infer<typeof MessageSchema>;

export const ReadySchema = z.looseObject({ status: z.string(), checks: z.record(z.string(), z.unknown()).optional() });
export const AgentctlStatusSchema = z.looseObject({
  reachable: z.boolean(),
  executors: z.array(z.looseObject({ name: z.string(), kind: z.string(), reachable: z.boolean() })).optional(),
});
