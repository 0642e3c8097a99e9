import { TOOL_CALL_NOTICE_STATUSES } from '@kandev/protocol';
import { z } from 'zod';
import type { AgentUpdate } from './acp-connection';

// Parses the `update` of an ACP session/update (child-process output: a boundary) into what agentctl
// forwards. Only message text and tool calls are kept; thoughts, plans, modes and unknown kinds are not.

/** Longest tool input or output text forwarded in one notice; the rest is cut (the agent keeps it). */
export const TOOL_TEXT_MAX = 64 * 1024;

const MessageChunkSchema = z.object({
  sessionUpdate: z.literal('agent_message_chunk'),
  content: z.object({ type: z.string(), text: z.unknown().optional() }),
});

const ToolCallSchema = z.object({
  sessionUpdate: z.enum(['tool_call', 'tool_call_update']),
  toolCallId: z.string().min(1),
  title: z.string().nullish(),
  status: z.enum(TOOL_CALL_NOTICE_STATUSES).nullish(),
  rawInput: z.unknown().optional(),
  content: z.array(z.unknown()).nullish(),
});

const TextToolContentSchema = z.object({
  type: z.literal('content'),
  content: z.object({ type: z.literal('text'), text: z.string() }),
});

function bounded(text: string): string {
  return text.length > TOOL_TEXT_MAX ? `${text.slice(0, TOOL_TEXT_MAX)}…[truncated]` : text;
}

function inputJson(rawInput: unknown): string | undefined {
  if (rawInput === undefined) return undefined;
  try {
    return bounded(JSON.stringify(rawInput) ?? '');
  } catch {
    return undefined;
  }
}

/** The text items of a tool call's content, joined by newlines (diffs and terminals are not text). */
function outputText(content: readonly unknown[] | null | undefined): string | undefined {
  if (content === undefined || content === null) return undefined;
  const texts = content.flatMap((item) => {
    const parsed = TextToolContentSchema.safeParse(item);
    return parsed.success ? [parsed.data.content.text] : [];
  });
  return bounded(texts.join('\n'));
}

/** The update agentctl forwards, or null for anything it ignores (or cannot read). */
export function parseSessionUpdate(update: unknown): AgentUpdate | null {
  const chunk = MessageChunkSchema.safeParse(update);
  if (chunk.success) {
    const { type, text } = chunk.data.content;
    return type === 'text' && typeof text === 'string' ? { kind: 'message_chunk', text } : null;
  }
  const call = ToolCallSchema.safeParse(update);
  if (!call.success) return null;
  const { toolCallId, title, status, rawInput, content } = call.data;
  return {
    kind: 'tool_call',
    toolCallId,
    title: title ?? undefined,
    status: status ?? undefined,
    inputJson: inputJson(rawInput),
    outputText: outputText(content),
  };
}
