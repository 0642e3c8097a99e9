import { newQueuedPrompt, type QueuedPrompt } from '../prompt-queue/queued-prompt';
import { newId } from '../store/row-values';
import type { Stores } from '../store/unit-of-work';
import type { Message, MessageAuthor, MessageMetadata } from './message';

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
}

/**
 * A prompt for a task's agent, in the caller's transaction: recorded in the task's conversation and
 * queued. The caller kicks the session's drainer once the transaction committed.
 */
export async function recordTaskPrompt(
  stores: Stores,
  prompt: TaskPrompt,
): Promise<{ message: Message; queued: QueuedPrompt }> {
  const sessionId = prompt.sessionId ?? (await newestLiveSession(stores, prompt.taskId));
  const queued = newQueuedPrompt({
    id: newId(),
    taskId: prompt.taskId,
    sessionId,
    prompt: prompt.text,
    source: prompt.author,
    createdAt: prompt.now,
  });
  const message: Message = {
    id: newId(),
    taskId: prompt.taskId,
    sessionId,
    type: 'message',
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
  const live = await stores.sessions.listLive(taskId);
  return live[live.length - 1]?.id ?? null;
}
