import { markSessionQuestionsStale } from '../parent-questions/parent-question-lifecycle';
import type { Stores } from '../../platform/store/unit-of-work';

/** The error a prompt in flight fails with when its session is stopped. */
export const SESSION_STOPPED_ERROR = 'session stopped';

/**
 * Records a stop in the caller's transaction: a live (or never started) session becomes cancelled, its
 * prompt in flight fails and a parent question it waits on is stale; queued prompts stay queued (a
 * resume drains them). False when the session was not live (nothing changed).
 */
export async function recordSessionStopped(stores: Stores, sessionId: string, now: string): Promise<boolean> {
  const session = await stores.sessions.findById(sessionId);
  if (session === undefined) return false;
  if ((await stores.sessions.advance(session, { kind: 'stopped' }, now)) === null) return false;
  await stores.promptQueue.failDispatched(sessionId, SESSION_STOPPED_ERROR, now);
  await markSessionQuestionsStale(stores, sessionId, 'session_ended', now);
  return true;
}
