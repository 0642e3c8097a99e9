import type { MessageMetadata } from '../../catalogue/messages/message';
import { recordTaskPrompt } from '../../runtime/prompt-queue/task-prompt';
import type { Stores } from '../../platform/store/unit-of-work';

// What both lifecycle evaluators (GitLab MRs, GitHub PRs) share around the durable queue: evaluations
// of one link run one at a time, and each automation prompt is queued at most once for its key.

/** Runs the jobs of one key one after the other; jobs of different keys run concurrently. */
export class KeyedSerializer {
  private readonly tails = new Map<string, Promise<void>>();

  /** Resolves (or rejects) with `job` once the key's earlier jobs settled. */
  run(key: string, job: () => Promise<void>): Promise<void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const run = previous.then(job);
    const tail = run.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return run;
  }
}

export interface CoalescedPrompt {
  /** Unique for the transition (prompt_queue.coalescing_key): a taken key queues nothing. */
  key: string;
  /** How the link's last evaluation names it (e.g. 'merged', 'auto_fix'). */
  label: string;
  text: string;
  metadata: MessageMetadata;
}

/**
 * Queues, in the caller's transaction, each prompt whose key was never queued; returns the labels
 * queued and the sessions to kick once the transaction committed.
 */
export async function queueCoalesced(
  stores: Stores,
  taskId: string,
  now: string,
  prompts: readonly CoalescedPrompt[],
): Promise<{ prompted: string[]; kicked: string[] }> {
  const prompted: string[] = [];
  const kicked: string[] = [];
  for (const prompt of prompts) {
    if (await stores.promptQueue.hasCoalescingKey(prompt.key)) continue; // this transition was queued already
    const { queued } = await recordTaskPrompt(stores, {
      taskId,
      author: 'operator',
      text: prompt.text,
      metadata: prompt.metadata,
      now,
      coalescingKey: prompt.key,
    });
    prompted.push(prompt.label);
    if (queued.sessionId !== null) kicked.push(queued.sessionId);
  }
  return { prompted, kicked };
}

/**
 * Thrown inside an evaluation's transaction when saving it lost the compare-and-set on the link's
 * lifecycle version (another replica evaluated the same transition first): everything rolls back, its
 * prompts included, so one transition queues its prompts once.
 */
export class EvaluationLost extends Error {}

/** The transaction's result, or undefined when the evaluation lost (nothing was written). */
export async function unlessLost<T>(transaction: Promise<T>): Promise<T | undefined> {
  try {
    return await transaction;
  } catch (error) {
    if (error instanceof EvaluationLost) return undefined;
    throw error;
  }
}
