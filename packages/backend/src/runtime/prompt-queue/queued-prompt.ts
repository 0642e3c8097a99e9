// Pure: a prompt waiting for (or delivered to) a session's agent, and how REST shows it.
import { z } from 'zod';

/**
 * queued -> dispatched (the drainer claimed it and sends it to agentctl) -> completed | failed.
 * dispatched -> queued only when agentctl refused it (nothing was delivered). queued -> cancelled: the
 * operator withdrew it before delivery (DELETE /api/sessions/:id/prompts/:prompt_id).
 */
export const PROMPT_STATUSES = ['queued', 'dispatched', 'completed', 'failed', 'cancelled'] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];

/**
 * 'answer': a parent's accepted answer to the session's question. It drains before every ordinary
 * prompt (those queued before the question must not overtake it) and the parent-question gate does
 * not hold it. Stored as an integer so the queue can order by it.
 */
export const PROMPT_PRIORITIES = ['normal', 'answer'] as const;
export type PromptPriority = (typeof PROMPT_PRIORITIES)[number];
export const PRIORITY_RANK: Record<PromptPriority, number> = { normal: 0, answer: 1 };

export function priorityOfRank(rank: number): PromptPriority | undefined {
  return PROMPT_PRIORITIES.find((priority) => PRIORITY_RANK[priority] === rank);
}

/** Whether the prompt passes a closed drain gate (a parent's answer is what the gate waits for). */
export function bypassesGate(prompt: Pick<QueuedPrompt, 'priority'>): boolean {
  return prompt.priority === 'answer';
}

export interface QueuedPrompt {
  id: string;
  taskId: string;
  /** The session meant to take it, or null for whichever session of the task runs next. */
  sessionId: string | null;
  prompt: string;
  /** Who queued it, in the message author format: 'operator' or 'task:<id>'. */
  source: string;
  priority: PromptPriority;
  status: PromptStatus;
  createdAt: string;
  dispatchedAt: string | null;
  finishedAt: string | null;
  /** ACP stop reason of a completed turn (end_turn, cancelled, ...). */
  stopReason: string | null;
  /** Why it failed; on a completed prompt, a warning about its turn (or null). */
  error: string | null;
  /**
   * The transition an automation queued it for (e.g. `gitlab-mr:<link>:merged:3`); unique, so the
   * same transition never queues twice. Absent/null for prompts nobody coalesces.
   */
  coalescingKey?: string | null;
}

/** How a dispatched prompt's turn ended; `warning`: what went wrong in a turn that still completed. */
export type PromptOutcome =
  { status: 'completed'; stopReason: string | null; warning: string | null } | { status: 'failed'; error: string };

/** A prompt just queued: nothing delivered, nothing finished (an ordinary prompt unless told). */
export function newQueuedPrompt(
  fields: Pick<QueuedPrompt, 'id' | 'taskId' | 'sessionId' | 'prompt' | 'source' | 'createdAt'> & {
    priority?: PromptPriority;
    coalescingKey?: string | null;
  },
): QueuedPrompt {
  return {
    ...fields,
    priority: fields.priority ?? 'normal',
    status: 'queued',
    dispatchedAt: null,
    finishedAt: null,
    stopReason: null,
    error: null,
  };
}

/** GET /api/sessions/:id/prompts items (the schema documents them in GET /api/openapi.json). */
export const QueuedPromptViewSchema = z
  .object({
    id: z.string(),
    session_id: z.string().nullable(),
    prompt: z.string(),
    source: z.string(),
    priority: z.enum(PROMPT_PRIORITIES),
    status: z.enum(PROMPT_STATUSES),
    stop_reason: z.string().nullable(),
    error: z
      .string()
      .nullable()
      .describe(
        '`failed`: why it failed; `completed`: a warning about its turn, e.g. that the agent never connected ' +
          'to its MCP server and had no kandev tools in it (null when there is none)',
      ),
    delivered: z
      .boolean()
      .describe('sent to the agent (`dispatched_at` is set); false while `queued` and for a `cancelled` prompt'),
    created_at: z.string(),
    dispatched_at: z.string().nullable(),
    finished_at: z.string().nullable(),
  })
  .strict()
  .meta({ id: 'QueuedPrompt' });
export type QueuedPromptView = z.infer<typeof QueuedPromptViewSchema>;

export function toQueuedPromptView(prompt: QueuedPrompt): QueuedPromptView {
  return {
    id: prompt.id,
    session_id: prompt.sessionId,
    prompt: prompt.prompt,
    source: prompt.source,
    priority: prompt.priority,
    status: prompt.status,
    stop_reason: prompt.stopReason,
    error: prompt.error,
    delivered: prompt.dispatchedAt !== null,
    created_at: prompt.createdAt,
    dispatched_at: prompt.dispatchedAt,
    finished_at: prompt.finishedAt,
  };
}
