import { PLAN_ENTRY_PRIORITIES, PLAN_ENTRY_STATUSES } from '@kandev/protocol';
import { z } from 'zod';
import type { AgentUpdate } from './acp-connection';
import { bounded, parseToolCall } from './tool-call-update';

// Parses the `update` of an ACP session/update (child-process output: a boundary) into what agentctl
// forwards: message text, tool calls (with output and diffs) and plans. Thoughts, usage, commands,
// modes and unknown kinds are not forwarded.

/** Most plan entries forwarded, and the longest entry text. */
export const PLAN_ENTRIES_MAX = 100;
const PLAN_TEXT_MAX = 2_000;

const MessageChunkSchema = z.object({
  sessionUpdate: z.literal('agent_message_chunk'),
  content: z.object({ type: z.string(), text: z.unknown().optional() }),
});

const ToolCallKindSchema = z.object({ sessionUpdate: z.enum(['tool_call', 'tool_call_update']) });

const PlanSchema = z.object({
  sessionUpdate: z.literal('plan'),
  entries: z.array(
    z.object({
      content: z.string(),
      priority: z.enum(PLAN_ENTRY_PRIORITIES).catch('medium'),
      status: z.enum(PLAN_ENTRY_STATUSES).catch('pending'),
    }),
  ),
});

/** The update agentctl forwards, or null for anything it ignores (or cannot read). */
export function parseSessionUpdate(update: unknown): AgentUpdate | null {
  const chunk = MessageChunkSchema.safeParse(update);
  if (chunk.success) {
    const { type, text } = chunk.data.content;
    return type === 'text' && typeof text === 'string' ? { kind: 'message_chunk', text } : null;
  }
  if (ToolCallKindSchema.safeParse(update).success) return parseToolCall(update, { withText: true });
  const plan = PlanSchema.safeParse(update);
  if (plan.success) {
    const entries = plan.data.entries
      .slice(0, PLAN_ENTRIES_MAX)
      .map((entry) => ({ ...entry, content: bounded(entry.content, PLAN_TEXT_MAX) }));
    return { kind: 'plan', entries };
  }
  return null;
}
