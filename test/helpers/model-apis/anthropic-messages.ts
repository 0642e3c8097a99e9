// The Anthropic Messages API (POST /v1/messages, streaming SSE or JSON) as Claude Code calls it
// (ANTHROPIC_BASE_URL). Side calls get canned answers: the session title (structured output), the
// prompt suggestion, the auto-mode classifier (allows) and anything offered no tools.
import type { ServerResponse } from 'node:http';
import { asString, type JsonRecord, asRecord } from './json-view';
import {
  anthropicSideKind,
  type AnthropicReading,
  type AnthropicSideKind,
  AUX_TOOL_ID_PREFIX,
  readAnthropicRequest,
} from './anthropic-request';
import { DOUBLE_UNDERSCORE_NAMING, familyToolName, splitMcpTools } from './model-request';
import { type ModelStep, scriptedStep, toolsReportText } from './model-script';
import { type FamilyContext, type ModelFamily, sendJson, type StandinCall } from './standin-server';
import { SseWriter, textDeltas } from './sse-writer';

const NAMING = DOUBLE_UNDERSCORE_NAMING;

type Block =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

interface Answer {
  blocks: Block[];
  hang: boolean;
}

const SIDE_TEXT: Record<AnthropicSideKind, string> = {
  classifier: '<severity>5</severity>',
  title: JSON.stringify({ title: 'Kandev test session' }),
  suggestion: 'run the tests',
  other: 'Kandev test',
};

let toolIds = 0;
const toolUse = (name: string, input: Record<string, unknown>, prefix = 'toolu_standin_'): Block => ({
  type: 'tool_use',
  id: `${prefix}${(toolIds += 1)}`,
  name,
  input,
});

/** How Claude Code says a step; a deferred kandev tool is first selected with ToolSearch. */
function answerFor(step: ModelStep, reading: AnthropicReading): { answer: Answer; aux: boolean } {
  const text = (t: string): { answer: Answer; aux: boolean } => ({
    answer: { blocks: [{ type: 'text', text: t }], hang: false },
    aux: false,
  });
  if ('say' in step) return text(step.say);
  if ('reportTools' in step) return text(toolsReportText(splitMcpTools(reading.discoverable, NAMING)));
  if ('hang' in step) return { answer: { blocks: [{ type: 'text', text: 'Working on it' }], hang: true }, aux: false };
  if ('shell' in step) {
    const input = { command: step.shell, description: 'Run the command the test asked for' };
    return { answer: { blocks: [toolUse('Bash', input)], hang: false }, aux: false };
  }
  const name = familyToolName(step.callKandev, NAMING);
  const deferred = !reading.offered.includes(name) && reading.offered.includes('ToolSearch');
  if (deferred && !reading.afterAuxCall) {
    const search = toolUse('ToolSearch', { query: `select:${name}` }, AUX_TOOL_ID_PREFIX);
    return { answer: { blocks: [search], hang: false }, aux: true };
  }
  return { answer: { blocks: [toolUse(name, step.args)], hang: false }, aux: false };
}

const usage = { input_tokens: 1000, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function stopReason(answer: Answer): string {
  return answer.blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

async function stream(response: ServerResponse, model: string, answer: Answer): Promise<void> {
  const sse = new SseWriter(response);
  const send = (type: string, data: JsonRecord) => sse.send({ type, ...data }, type);
  const message = { id: `msg_standin_${toolIds}`, type: 'message', role: 'assistant', model, content: [] };
  send('message_start', { message: { ...message, stop_reason: null, stop_sequence: null, usage } });
  for (const [index, block] of answer.blocks.entries()) {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const delta of textDeltas(block.text)) {
        send('content_block_delta', { index, delta: { type: 'text_delta', text: delta } });
      }
      if (answer.hang) return sse.untilClosed();
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      const json = JSON.stringify(block.input);
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json } });
    }
    send('content_block_stop', { index });
  }
  send('message_delta', {
    delta: { stop_reason: stopReason(answer), stop_sequence: null },
    usage: { output_tokens: 10 },
  });
  send('message_stop', {});
  sse.end();
}

function reply(response: ServerResponse, body: JsonRecord, answer: Answer): Promise<void> {
  const model = asString(body.model) ?? 'claude-standin';
  if (body.stream === true) return stream(response, model, answer);
  const message = { id: `msg_standin_${toolIds}`, type: 'message', role: 'assistant', model };
  sendJson(response, 200, { ...message, content: answer.blocks, stop_reason: stopReason(answer), usage });
  return Promise.resolve();
}

async function serve(call: StandinCall, response: ServerResponse, context: FamilyContext): Promise<void> {
  // Claude Code's connectivity check (sent unless non-essential traffic is off) and token counting.
  if (call.path === '/api/hello') return sendJson(response, 200, {});
  if (call.path === '/v1/messages/count_tokens') return sendJson(response, 200, { input_tokens: 1000 });
  const body = asRecord(call.body);
  if (call.method !== 'POST' || call.path !== '/v1/messages' || body === undefined) {
    return sendJson(response, 404, { type: 'error', error: { type: 'not_found_error', message: 'stand-in' } });
  }
  const reading = readAnthropicRequest(body);
  const side = anthropicSideKind(body, reading);
  const visible = splitMcpTools(reading.discoverable, NAMING);
  const common = {
    instructions: reading.instructions,
    userTexts: reading.userTexts,
    kandevTools: visible.kandev,
    otherMcpTools: visible.other,
    toolResults: reading.toolResults,
    raw: body,
  };
  if (side !== undefined) {
    context.record({ ...common, kind: 'side', step: null });
    return reply(response, body, { blocks: [{ type: 'text', text: SIDE_TEXT[side] }], hang: false });
  }
  const step = scriptedStep(context.turns, reading.prompt, reading.stepIndex);
  const { answer, aux } = answerFor(step, reading);
  context.record({ ...common, kind: 'main', step: aux ? null : step });
  return reply(response, body, answer);
}

export const anthropicMessages: ModelFamily = { name: 'anthropic-messages', serve };
