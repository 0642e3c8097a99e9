import { type FileDiff, TOOL_CALL_NOTICE_STATUSES } from '@kandev/protocol';
import { z } from 'zod';
import type { ToolCallUpdate } from './acp-connection';

// Parses an ACP tool call (the body of a tool_call / tool_call_update session update, or the toolCall
// of a session/request_permission): child-process output, so every field is checked and bounded.

/** Longest tool input or output text forwarded in one notice; the rest is cut (the agent keeps it). */
export const TOOL_TEXT_MAX = 64 * 1024;
/** Longest old or new text of one diff, and most diffs per call. */
export const DIFF_TEXT_MAX = 32 * 1024;
export const DIFFS_MAX = 20;

const TextContentSchema = z.object({
  type: z.literal('content'),
  content: z.object({ type: z.literal('text'), text: z.string() }),
});

const DiffContentSchema = z.object({
  type: z.literal('diff'),
  path: z.string().min(1),
  oldText: z.string().nullish(),
  newText: z.string(),
});

/** An MCP tool result ({content: [{type: 'text', text}]}), as some agents put it in rawOutput. */
const McpResultSchema = z.object({ content: z.array(z.unknown()) });
const McpTextSchema = z.object({ type: z.literal('text'), text: z.string() });

const ToolCallSchema = z.object({
  toolCallId: z.string().min(1),
  title: z.string().nullish(),
  status: z.enum(TOOL_CALL_NOTICE_STATUSES).nullish().catch(undefined),
  kind: z.string().max(64).nullish().catch(undefined),
  rawInput: z.unknown().optional(),
  rawOutput: z.unknown().optional(),
  content: z.array(z.unknown()).nullish().catch(undefined),
  _meta: z.record(z.string(), z.unknown()).nullish().catch(undefined),
});

const MetaSchema = z.object({
  // Codex streams a command's output here (terminal content needs a client terminal, which agentctl has not).
  terminal_output_delta: z.object({ data: z.string() }).optional().catch(undefined),
  // Claude Code names the MCP server and tool of a call.
  claudeCode: z
    .object({ toolName: z.string().optional(), mcpServer: z.object({ name: z.string() }).optional() })
    .optional()
    .catch(undefined),
  is_mcp_tool_call: z.boolean().optional().catch(undefined),
});

/** Codex describes an MCP call's rawInput as {server, tool, arguments}. */
const McpRawInputSchema = z.object({ server: z.string().min(1), tool: z.string().min(1) });

export function bounded(text: string, max = TOOL_TEXT_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…[truncated]` : text;
}

/** JSON text of a value (an agent's raw input), bounded; undefined when absent or not serialisable. */
function jsonText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    return bounded(JSON.stringify(value) ?? '');
  } catch {
    return undefined;
  }
}

/** The text of an MCP-shaped result ({content} or {result: {content}}), else undefined. */
function mcpResultText(raw: unknown): string | undefined {
  const holder = typeof raw === 'object' && raw !== null && 'result' in raw ? raw.result : raw;
  const parsed = McpResultSchema.safeParse(holder);
  if (!parsed.success) return undefined;
  const texts = parsed.data.content.flatMap((item) => {
    const text = McpTextSchema.safeParse(item);
    return text.success ? [text.data.text] : [];
  });
  return texts.length > 0 ? bounded(texts.join('\n')) : undefined;
}

function diffOf(item: z.infer<typeof DiffContentSchema>): FileDiff {
  const oldText = item.oldText ?? null;
  const truncated = item.newText.length > DIFF_TEXT_MAX || (oldText?.length ?? 0) > DIFF_TEXT_MAX;
  return {
    path: item.path,
    oldText: oldText === null ? null : oldText.slice(0, DIFF_TEXT_MAX),
    newText: item.newText.slice(0, DIFF_TEXT_MAX),
    truncated,
  };
}

function mcpToolOf(meta: z.infer<typeof MetaSchema>, rawInput: unknown): { server: string; tool: string } | undefined {
  const claude = meta.claudeCode;
  const server = claude?.mcpServer?.name;
  const prefix = server === undefined ? undefined : `mcp__${server}__`;
  if (server !== undefined && prefix !== undefined && claude?.toolName?.startsWith(prefix) === true) {
    return { server, tool: claude.toolName.slice(prefix.length) };
  }
  const codex = McpRawInputSchema.safeParse(rawInput);
  return meta.is_mcp_tool_call === true && codex.success ? codex.data : undefined;
}

/**
 * The tool call agentctl records, or null when it cannot be read. `withText: false` ignores text
 * content (a permission request's content describes the call, e.g. its arguments, not its output).
 */
export function parseToolCall(raw: unknown, options: { withText: boolean }): ToolCallUpdate | null {
  const call = ToolCallSchema.safeParse(raw);
  if (!call.success) return null;
  const { toolCallId, title, status, kind, rawInput, rawOutput, content } = call.data;
  const meta = MetaSchema.safeParse(call.data._meta ?? {});
  const texts: string[] = [];
  const diffs: FileDiff[] = [];
  for (const item of content ?? []) {
    const text = TextContentSchema.safeParse(item);
    if (text.success) texts.push(text.data.content.text);
    const diff = DiffContentSchema.safeParse(item);
    if (diff.success && diffs.length < DIFFS_MAX) diffs.push(diffOf(diff.data));
  }
  const textOutput = options.withText && texts.length > 0 ? bounded(texts.join('\n')) : undefined;
  // A raw output string is the output itself (a command's stdout); anything else is shown as JSON.
  const rawOutputText =
    typeof rawOutput === 'string' ? bounded(rawOutput) : (mcpResultText(rawOutput) ?? jsonText(rawOutput));
  return {
    kind: 'tool_call',
    toolCallId,
    title: title ?? undefined,
    status: status ?? undefined,
    toolKind: kind ?? undefined,
    inputJson: jsonText(rawInput),
    outputText: textOutput ?? rawOutputText,
    outputAppend: meta.success ? meta.data.terminal_output_delta?.data : undefined,
    diffs: diffs.length > 0 ? diffs : undefined,
    mcpTool: meta.success ? mcpToolOf(meta.data, rawInput) : undefined,
  };
}
