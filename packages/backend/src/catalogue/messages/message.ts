import { z } from 'zod';

// Pure: what a task's conversation holds, who wrote each entry, and how tools and REST show it.

/**
 * Entry kinds recorded on a task. 'message' is text (an agent's grows as it streams); 'tool_call' is
 * one agent tool call (updated as it progresses); 'plan' an agent's plan for one turn (rewritten with
 * each update; metadata.entries holds the list); 'session_event' something that happened to a
 * session's agent (it exited, or agentctl noticed something: metadata.event says which);
 * 'parent_question' an autopilot child's question to its parent (its metadata follows the question's
 * status); 'parent_answer' the parent's accepted answer, queued for the child as a prompt.
 */
export const MESSAGE_TYPES = [
  'message',
  'step_complete',
  'title_change',
  'task_stopped',
  'tool_call',
  'plan',
  'session_event',
  'parent_question',
  'parent_answer',
] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const MessageTypeSchema = z.enum(MESSAGE_TYPES);

/** 'agent' is the task's own agent; 'task:<id>' is another task's agent (a parent, say). */
export type MessageAuthor = 'agent' | 'operator' | `task:${string}`;

export function taskAuthor(taskId: string): MessageAuthor {
  return `task:${taskId}`;
}

export const MessageMetadataSchema = z.record(z.string(), z.unknown());
export type MessageMetadata = z.infer<typeof MessageMetadataSchema>;

export interface Message {
  id: string;
  taskId: string;
  sessionId: string | null;
  type: MessageType;
  author: MessageAuthor;
  content: string;
  metadata: MessageMetadata;
  createdAt: string;
}

/** GET /api/tasks/:id/messages items and `message.*` event payloads (documented in GET /api/openapi.json). */
export const MessageViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    session_id: z.string().nullable(),
    type: MessageTypeSchema,
    author: z.string().describe("'agent', 'operator' or 'task:<id>' (another task's agent)"),
    content: z.string(),
    metadata: MessageMetadataSchema.describe('per type: see the route description'),
    created_at: z.string(),
  })
  .strict()
  .meta({ id: 'Message' });
export type MessageView = z.infer<typeof MessageViewSchema>;

export function toMessageView(message: Message): MessageView {
  return {
    id: message.id,
    task_id: message.taskId,
    session_id: message.sessionId,
    type: message.type,
    author: message.author,
    content: message.content,
    metadata: message.metadata,
    created_at: message.createdAt,
  };
}
