// Pure: a prompt waiting for a task's agent. Issue 5 drains the queue; until then rows stay 'queued'.

export const PROMPT_STATUSES = ['queued'] as const;
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
}
