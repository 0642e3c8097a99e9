import type { SessionEvent } from '@kandev/protocol';
import type { Message, MessageMetadata } from '../../catalogue/messages/message';
import type { AgentSession } from '../sessions/agent-session';
import { newId } from '../../platform/store/row-values';
import type { Stores } from '../../platform/store/unit-of-work';
import { planContent, planEntriesMetadata, planStreamKey, textStreamKey } from './agent-stream';

// What a session's agent streams into its task's conversation: each run of text and each turn's plan
// is one entry, inserted on its first event (message.created) and rewritten by the next ones
// (message.updated, carrying the whole entry so far).

type EventOf<K extends SessionEvent['kind']> = Extract<SessionEvent, { kind: K }>;

type Streamed = Pick<Message, 'type' | 'content' | 'metadata'>;

/** Inserts the stream's entry, or rewrites it with `next(existing)`. */
async function writeStreamed(
  stores: Stores,
  session: AgentSession,
  streamKey: string,
  first: Streamed,
  next: (existing: Message) => Streamed,
  now: string,
): Promise<void> {
  const existing = await stores.messages.findStreamed(session.id, streamKey);
  if (existing === undefined) {
    const message = { id: newId(), taskId: session.taskId, sessionId: session.id, author: 'agent' as const };
    await stores.messages.insertStreamed({ ...message, ...first, createdAt: now }, streamKey);
    return;
  }
  await stores.messages.updateStreamed({ ...existing, ...next(existing) }, now);
}

/**
 * The agent's text: segment 0 (an older agentctl) is a whole run, one entry per event; segment n
 * appends to the run n of its prompt, one entry per (session, prompt, segment).
 */
export async function recordAgentMessage(
  stores: Stores,
  session: AgentSession,
  event: EventOf<'agent_message'>,
  now: string,
): Promise<void> {
  const metadata: MessageMetadata = { prompt_id: event.promptId, session_id: session.id };
  if (event.segment === 0) {
    await stores.messages.insert({
      id: newId(),
      taskId: session.taskId,
      sessionId: session.id,
      type: 'message',
      author: 'agent',
      content: event.text,
      metadata,
      createdAt: now,
    });
    return;
  }
  const key = textStreamKey(event.promptId, event.segment);
  const first = { type: 'message' as const, content: event.text, metadata: { ...metadata, segment: event.segment } };
  await writeStreamed(
    stores,
    session,
    key,
    first,
    (existing) => ({ ...existing, content: existing.content + event.text }),
    now,
  );
}

/** The agent's plan for a turn: the whole list each time, so the entry is replaced in place. */
export async function recordPlan(stores: Stores, session: AgentSession, event: EventOf<'plan'>, now: string) {
  const plan: Streamed = {
    type: 'plan',
    content: planContent(event.entries),
    metadata: { prompt_id: event.promptId, session_id: session.id, entries: planEntriesMetadata(event.entries) },
  };
  await writeStreamed(stores, session, planStreamKey(event.promptId), plan, () => plan, now);
}
