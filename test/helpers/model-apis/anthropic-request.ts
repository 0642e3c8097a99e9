// Reading an Anthropic Messages request as Claude Code sends it: system text (in `system` and in
// role "system" messages), the operator's prompts (user text blocks that are no <system-reminder>),
// tool results, and the MCP tools the model can discover: in `tools`, or deferred behind ToolSearch
// and announced by name in system text. Claude Code merges messages (a new prompt joins the message
// of the last tool result, a turn's final text joins its last tool call), so steps count blocks.
import { asRecord, asString, field, type JsonRecord, records } from './json-view';

/** Ids of the tool calls the stand-in makes on its own (a ToolSearch before a deferred tool). */
export const AUX_TOOL_ID_PREFIX = 'toolu_aux_';

export interface AnthropicReading {
  instructions: string;
  userTexts: string[];
  toolResults: string[];
  /** Names in `tools`. */
  offered: string[];
  /** Names in `tools` plus the deferred ones announced so far. */
  discoverable: string[];
  /** The latest operator prompt and how many scripted steps were answered since. */
  prompt: string;
  stepIndex: number;
  /** The turn's last tool call was the stand-in's own ToolSearch (the deferred tool is now loaded). */
  afterAuxCall: boolean;
}

function blocksOf(message: JsonRecord): JsonRecord[] {
  const content = message.content;
  return typeof content === 'string' ? [{ type: 'text', text: content }] : records(content);
}

function textsOf(message: JsonRecord): string[] {
  return blocksOf(message).flatMap((b) => (b.type === 'text' ? (asString(b.text) ?? []) : []));
}

const isReminder = (text: string) => text.trimStart().startsWith('<system-reminder>');

interface FlatBlock {
  role: unknown;
  block: JsonRecord;
}

/**
 * Whether the block at `i` is an operator prompt: user text that is no <system-reminder> and does not
 * come right after the result of the stand-in's own ToolSearch (Claude Code adds "Tool loaded." there).
 * Blocks, not messages: Claude Code merges a new prompt into the message of the last tool result.
 */
function isPromptAt(blocks: readonly FlatBlock[], i: number): boolean {
  const { role, block } = blocks[i] ?? { role: undefined, block: {} };
  if (role !== 'user' || block.type !== 'text' || isReminder(asString(block.text) ?? '')) return false;
  const before = blocks[i - 1]?.block;
  return !(before?.type === 'tool_result' && (asString(before.tool_use_id) ?? '').startsWith(AUX_TOOL_ID_PREFIX));
}

function resultText(block: JsonRecord): string {
  const content = block.content;
  if (typeof content === 'string') return content;
  return records(content)
    .flatMap((b) => (b.type === 'text' ? (asString(b.text) ?? []) : []))
    .join('\n');
}

const ANNOUNCEMENT = /^The following .*tools\b/;

/** Tool names announced in text ("The following deferred tools are now available …:" then one per line). */
export function announcedTools(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  for (const text of texts) {
    let mode: 'add' | 'remove' | undefined;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (ANNOUNCEMENT.test(line)) mode = line.includes('no longer available') ? 'remove' : 'add';
      else if (mode !== undefined && /^[\w.-]+$/.test(line)) {
        if (mode === 'add') names.add(line);
        else names.delete(line);
      } else mode = undefined;
    }
  }
  return names;
}

export function readAnthropicRequest(body: JsonRecord): AnthropicReading {
  const system = body.system;
  const systemTexts = typeof system === 'string' ? [system] : records(system).flatMap((b) => asString(b.text) ?? []);
  const messages = records(body.messages);
  const messageSystemTexts = messages.filter((m) => m.role === 'system').flatMap(textsOf);
  const offered = records(body.tools).flatMap((t) => asString(t.name) ?? []);
  const everyText = [...systemTexts, ...messages.flatMap(textsOf)];
  const discoverable = new Set([...offered, ...announcedTools(everyText)]);

  const blocks = messages.flatMap((m) => blocksOf(m).map((block) => ({ role: m.role, block })));
  let promptAt = -1;
  for (let i = blocks.length - 1; i >= 0 && promptAt === -1; i -= 1) if (isPromptAt(blocks, i)) promptAt = i;
  const calls = blocks.slice(promptAt + 1).flatMap(({ block }) => (block.type === 'tool_use' ? [block] : []));
  const isAux = (call: JsonRecord) => (asString(call.id) ?? '').startsWith(AUX_TOOL_ID_PREFIX);
  const text = (i: number) => asString(blocks[i]?.block.text) ?? '';
  return {
    instructions: [...systemTexts, ...messageSystemTexts].join('\n'),
    userTexts: blocks.flatMap((_, i) => (isPromptAt(blocks, i) ? [text(i)] : [])),
    toolResults: blocks.flatMap(({ block }) => (block.type === 'tool_result' ? [resultText(block)] : [])),
    offered,
    discoverable: [...discoverable],
    prompt: promptAt === -1 ? '' : text(promptAt),
    stepIndex: calls.filter((call) => !isAux(call)).length,
    afterAuxCall: calls.length > 0 && isAux(calls.at(-1) ?? {}),
  };
}

export type AnthropicSideKind = 'classifier' | 'title' | 'suggestion' | 'other';

/** Claude Code's calls beside the conversation; undefined for a main (conversation) request. */
export function anthropicSideKind(body: JsonRecord, reading: AnthropicReading): AnthropicSideKind | undefined {
  if (reading.instructions.includes('security monitor for autonomous AI coding agents')) return 'classifier';
  if (asRecord(field(body, 'output_config', 'format', 'schema', 'properties', 'title')) !== undefined) return 'title';
  const lastUser = records(body.messages)
    .filter((m) => m.role === 'user')
    .at(-1);
  if (lastUser !== undefined && textsOf(lastUser).some((t) => t.startsWith('[SUGGESTION MODE'))) return 'suggestion';
  if (reading.offered.length === 0) return 'other';
  return undefined;
}
