import type { SessionEvent } from '@kandev/protocol';
import type { Message, MessageMetadata } from '../../catalogue/messages/message';
import type { AgentSession } from '../sessions/agent-session';
import { newId } from '../../platform/store/row-values';
import type { Stores } from '../../platform/store/unit-of-work';
import { diffsMetadata } from './agent-stream';

// What a session's agent did, recorded in its task's conversation (its text and plans:
// agent-stream-output.ts).

type EventOf<K extends SessionEvent['kind']> = Extract<SessionEvent, { kind: K }>;

/** The agent's input as JSON when it parses, else as given; null when unknown. */
function parseInputJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A tool call whose status is one of these has ended: `finished_at` says when (its duration, from the entry's time). */
function isFinished(status: string): boolean {
  return status === 'completed' || status === 'failed';
}

/**
 * One conversation entry per (session, tool call id): inserted on the first notice, then its status
 * (and the title, kind, input, output and file changes once known) follows the later notices of the
 * same call. A notice that carries diffs replaces the ones kept. The first notice of an ended status
 * sets metadata `finished_at`.
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
      kind: event.toolKind.length > 0 ? event.toolKind : null,
      input,
      output: event.outputText.length > 0 ? event.outputText : null,
      diffs: diffsMetadata(event.diffs),
      ...(isFinished(event.status) ? { finished_at: now } : {}),
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
    ...(event.toolKind.length > 0 ? { kind: event.toolKind } : {}),
    ...(input === null ? {} : { input }),
    ...(event.outputText.length > 0 ? { output: event.outputText } : {}),
    ...(event.diffs.length > 0 ? { diffs: diffsMetadata(event.diffs) } : {}),
    ...(isFinished(event.status) && existing.metadata.finished_at === undefined ? { finished_at: now } : {}),
  };
  const title = event.title.length > 0 ? event.title : existing.content;
  await stores.messages.updateToolCall(existing.id, title, metadata);
}

/** Something agentctl noticed about the agent (no MCP tools, no fitting mode, ...): said in the conversation. */
export async function recordAgentNotice(
  stores: Stores,
  session: AgentSession,
  event: EventOf<'agent_notice'>,
  now: string,
): Promise<void> {
  await stores.messages.insert({
    id: newId(),
    taskId: session.taskId,
    sessionId: session.id,
    type: 'session_event',
    author: 'agent',
    content: event.message,
    metadata: { event: 'agent_notice', code: event.code, level: event.level },
    createdAt: now,
  });
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
