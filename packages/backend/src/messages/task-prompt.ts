import type { QueuedPrompt } from '../prompt-queue/queued-prompt';
import { newId } from '../store/row-values';
import type { Stores } from '../store/unit-of-work';
import type { Message, MessageAuthor, MessageMetadata } from './message';

/**
 * A prompt for a task's agent, in the caller's transaction: recorded in the task's conversation and
 * queued for its newest live session (or, with none, for whichever session runs next).
 */
export async function recordTaskPrompt(
  stores: Stores,
  prompt: { taskId: string; author: MessageAuthor; text: string; metadata: MessageMetadata; now: string },
): Promise<{ message: Message; queued: QueuedPrompt }> {
  const live = await stores.sessions.listLive(prompt.taskId);
  const sessionId = live[live.length - 1]?.id ?? null;
  const queued: QueuedPrompt = {
    id: newId(),
    taskId: prompt.taskId,
    sessionId,
    prompt: prompt.text,
    source: prompt.author,
    status: 'queued',
    createdAt: prompt.now,
  };
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
