import type { SessionEvent } from '@kandev/protocol';
import type { Message, MessageMetadata } from '../messages/message';
import type { AgentSession } from '../sessions/agent-session';
import { newId } from '../store/row-values';
import type { Stores } from '../store/unit-of-work';

// What a session's agent said and did, recorded in its task's conversation.

type EventOf<K extends SessionEvent['kind']> = Extract<SessionEvent, { kind: K }>;

/** The agent's text of a turn (chunks already joined by agentctl). */
export async function recordAgentMessage(
  stores: Stores,
  session: AgentSession,
  event: EventOf<'agent_message'>,
  now: string,
): Promise<void> {
  await stores.messages.insert({
    id: newId(),
    taskId: session.taskId,
    sessionId: session.id,
    type: 'message',
    author: 'agent',
    content: event.text,
    metadata: { prompt_id: event.promptId, session_id: session.id },
    createdAt: now,
  });
}

/** The agent's input as JSON when it parses, else as given; null when unknown. */
function parseInputJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * One conversation entry per (session, tool call id): inserted on the first notice, then its status
 * (and the title, input and output once known) follows the later notices of the same call.
 */
export async function recordToolCall(
  stores: Stores,
  session: AgentSession,
  event: EventOf<'tool_call'>,
  now: string,
): Promise<void> {
  const existing = await stores.messages.findToolCall(session.id, event.toolCallId);
  const input = parseInputJson(event.inputJson);
  if (existing === undefined) {
    const metadata: MessageMetadata = {
      prompt_id: event.promptId,
      tool_call_id: event.toolCallId,
      status: event.status,
      input,
      output: event.outputText.length > 0 ? event.outputText : null,
    };
    const message: Message & { type: 'tool_call'; sessionId: string } = {
      id: newId(),
      taskId: session.taskId,
      sessionId: session.id,
      type: 'tool_call',
      author: 'agent',
      content: event.title,
      metadata,
      createdAt: now,
    };
    await stores.messages.insertToolCall(message, event.toolCallId);
    return;
  }
  const metadata: MessageMetadata = {
    ...existing.metadata,
    status: event.status,
    ...(input === null ? {} : { input }),
    ...(event.outputText.length > 0 ? { output: event.outputText } : {}),
  };
  const title = event.title.length > 0 ? event.title : existing.content;
  await stores.messages.updateToolCall(existing.id, title, metadata);
}

/** The agent process ended on its own: said in the conversation, with why. */
export async function recordAgentExit(
  stores: Stores,
  session: AgentSession,
  event: EventOf<'agent_exited'>,
  failedPromptId: string | undefined,
  now: string,
): Promise<void> {
  await stores.messages.insert({
    id: newId(),
    taskId: session.taskId,
    sessionId: session.id,
    type: 'session_event',
    author: 'agent',
    content: `The agent exited: ${event.reason}`,
    metadata: {
      event: 'agent_exited',
      exit_code: event.exitCode,
      signal: event.signal,
      reason: event.reason,
      prompt_id: failedPromptId ?? null,
    },
    createdAt: now,
  });
}
