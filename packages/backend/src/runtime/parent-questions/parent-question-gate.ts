import type { DrainGate } from '../prompt-queue/drain-gate';
import { pendingQuestionOfSession } from './parent-question-lifecycle';

/**
 * Holds a child session's queue while it waits for its parent: asked inside the drainer's claim
 * transaction, so the question's status and the claim are one consistent read. A question found
 * stale here is recorded stale and holds nothing. The parent's answer is queued with priority
 * 'answer' and passes the gate (decideDrain), everything else waits until it was delivered.
 */
export function createParentQuestionGate(clock: () => Date): DrainGate {
  return {
    async heldBecause(stores, session) {
      const question = await pendingQuestionOfSession(stores, session.id, clock().toISOString());
      return question === undefined ? null : `waiting for the parent's answer to question ${question.id}`;
    },
  };
}
