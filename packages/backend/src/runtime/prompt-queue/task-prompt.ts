import { assertPromptText } from '@kandev/protocol';
import { newQueuedPrompt, type PromptPriority, type QueuedPrompt } from './queued-prompt';
import { newId } from '../../platform/store/row-values';
import type { Stores } from '../../platform/store/unit-of-work';
import type { Message, MessageAuthor, MessageMetadata, MessageType } from '../../catalogue/messages/message';

export interface TaskPrompt {
  taskId: string;
  author: MessageAuthor;
  text: string;
  metadata: MessageMetadata;
  now: string;
  /**
   * The session to queue it for (the caller checked it belongs to the task). Absent: the task's newest
   * live session, or with none, whichever session of the task runs next.
   */
  sessionId?: string;
  /** The conversation entry's type (default 'message'; a parent's answer is 'parent_answer'). */
  type?: Extract<MessageType, 'message' | 'parent_answer'>;
  /** Default 'normal'; 'answer' drains first and passes the parent-question gate. */
  priority?: PromptPriority;
  /** The transition an automation queues it for: at most one prompt per key, ever. */
  coalescingKey?: string;
  /** The queued prompt's id when the caller recorded it elsewhere first (default: a fresh one). */
  queuedPromptId?: string;
}

/**
 * A prompt for a task's agent, in the caller's transaction: recorded in the task's conversation and
 * queued. The caller kicks the session's drainer once the transaction committed. Every door checks the
 * text with protocol's prompt rule first; this is the same rule once more for the doors whose text is
 * composed here (automation prompts, answers), so a prompt agentctl would refuse is never queued.
 */
export async function recordTaskPrompt(
  stores: Stores,
  prompt: TaskPrompt,
): Promise<{ message: Message; queued: QueuedPrompt }> {
  assertPromptText(prompt.text);
  const sessionId = prompt.sessionId ?? (await newestLiveSession(stores, prompt.taskId));
  const queued = newQueuedPrompt({
    id: prompt.queuedPromptId ?? newId(),
    taskId: prompt.taskId,
    sessionId,
    prompt: prompt.text,
    source: prompt.author,
    createdAt: prompt.now,
    priority: prompt.priority,
    coalescingKey: prompt.coalescingKey ?? null,
  });
  const message: Message = {
    id: newId(),
    taskId: prompt.taskId,
    sessionId,
    type: prompt.type ?? 'message',
    author: prompt.author,
    content: prompt.text,
    metadata: { ...prompt.metadata, queued_prompt_id: queued.id },
    createdAt: prompt.now,
  };
  await stores.messages.insert(message);
  await stores.promptQueue.enqueue(queued);
  return { message, queued };
}

async function newestLiveSession(stores: Stores, taskId: string): Promise<string | null> {
  return (await stores.sessions.newestLiveId(taskId)) ?? null;
}
