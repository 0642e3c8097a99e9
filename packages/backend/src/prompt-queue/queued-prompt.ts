// Pure: a prompt waiting for (or delivered to) a session's agent, and how REST shows it.

/**
 * queued -> dispatched (the drainer claimed it and sends it to agentctl) -> completed | failed.
 * dispatched -> queued only when agentctl refused it (nothing was delivered).
 */
export const PROMPT_STATUSES = ['queued', 'dispatched', 'completed', 'failed'] as const;
export type PromptStatus = (typeof PROMPT_STATUSES)[number];

export interface QueuedPrompt {
  id: string;
  taskId: string;
  /** The session meant to take it, or null for whichever session of the task runs next. */
  sessionId: string | null;
  prompt: string;
  /** Who queued it, in the message author format: 'operator' or 'task:<id>'. */
  source: string;
  status: PromptStatus;
  createdAt: string;
  dispatchedAt: string | null;
  finishedAt: string | null;
  /** ACP stop reason of a completed turn (end_turn, cancelled, ...). */
  stopReason: string | null;
  /** Why it failed. */
  error: string | null;
}

/** How a dispatched prompt's turn ended. */
export type PromptOutcome = { status: 'completed'; stopReason: string | null } | { status: 'failed'; error: string };

/** A prompt just queued: nothing delivered, nothing finished. */
export function newQueuedPrompt(
  fields: Pick<QueuedPrompt, 'id' | 'taskId' | 'sessionId' | 'prompt' | 'source' | 'createdAt'>,
): QueuedPrompt {
  return { ...fields, status: 'queued', dispatchedAt: null, finishedAt: null, stopReason: null, error: null };
}

export interface QueuedPromptView {
  id: string;
  session_id: string | null;
  prompt: string;
  source: string;
  status: PromptStatus;
  stop_reason: string | null;
  error: string | null;
  created_at: string;
  dispatched_at: string | null;
  finished_at: string | null;
}

export function toQueuedPromptView(prompt: QueuedPrompt): QueuedPromptView {
  return {
    id: prompt.id,
    session_id: prompt.sessionId,
    prompt: prompt.prompt,
    source: prompt.source,
    status: prompt.status,
    stop_reason: prompt.stopReason,
    error: prompt.error,
    created_at: prompt.createdAt,
    dispatched_at: prompt.dispatchedAt,
    finished_at: prompt.finishedAt,
  };
}
