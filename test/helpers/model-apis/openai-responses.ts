// The OpenAI Responses API (POST /v1/responses, streaming SSE) as Codex calls it (`openai_base_url`
// in CODEX_HOME/config.toml); the WebSocket upgrade Codex tries first is refused by the server (426).
// Codex runs its models in code mode: the one action tool is `exec` (JavaScript), MCP tools are
// `tools.mcp__kandev__<name>(args)` and are listed only in the script's global ALL_TOOLS, so the
// stand-in reports tools in two requests (list ALL_TOOLS, then say what the listing printed).
import type { ServerResponse } from 'node:http';
import { asRecord, type JsonRecord } from './json-view';
import { DOUBLE_UNDERSCORE_NAMING, familyToolName, splitMcpTools } from './model-request';
import { type ModelStep, scriptedStep, toolsReportText } from './model-script';
import {
  AUX_CALL_ID_PREFIX,
  listedNames,
  readResponsesRequest,
  type ResponsesReading,
  responsesSideKind,
} from './openai-responses-request';
import { type FamilyContext, type ModelFamily, sendJson, type StandinCall } from './standin-server';
import { SseWriter, textDeltas } from './sse-writer';

const NAMING = DOUBLE_UNDERSCORE_NAMING;
const LIST_ALL_TOOLS = 'text(JSON.stringify(ALL_TOOLS.map((t) => t.name)));';
/** Codex's reviewer ("guardian") answers this schema; the stand-in always allows. */
const REVIEWER_VERDICT = { outcome: 'allow', risk_level: 'low', user_authorization: 'high', rationale: 'stand-in' };

type Item = { say: string } | { exec: string; callId: string } | { hang: true };

let ids = 0;
const nextId = (prefix: string) => `${prefix}${(ids += 1)}`;
const exec = (code: string, callIdPrefix = 'call_standin_'): Item => ({ exec: code, callId: nextId(callIdPrefix) });
const printResult = (call: string) => `const r = await ${call}; text(JSON.stringify(r));`;

/** How Codex says a step (aux: the stand-in's own ALL_TOOLS listing, not a scripted step). */
function itemFor(step: ModelStep, reading: ResponsesReading): { item: Item; aux: boolean } {
  if ('say' in step || 'hang' in step) return { item: step, aux: false };
  // Every other step runs JavaScript: without code mode the script cannot be said.
  if (!reading.offered.includes('exec')) throw new Error(`no code-mode exec tool: ${reading.offered.join(',')}`);
  if ('reportTools' in step) {
    if (reading.auxOutput === undefined) return { item: exec(LIST_ALL_TOOLS, AUX_CALL_ID_PREFIX), aux: true };
    const names = listedNames(reading.auxOutput);
    if (names === undefined) throw new Error(`ALL_TOOLS listing printed no names: ${reading.auxOutput}`);
    return { item: { say: toolsReportText(splitMcpTools(names, NAMING)) }, aux: false };
  }
  if ('shell' in step) {
    // Escalated: Codex asks before it runs the command outside its sandbox (in `workspace-write`).
    const args = { cmd: step.shell, sandbox_permissions: 'require_escalated', justification: 'The test asks for it' };
    return { item: exec(printResult(`tools.exec_command(${JSON.stringify(args)})`)), aux: false };
  }
  const tool = familyToolName(step.callKandev, NAMING);
  return { item: exec(printResult(`tools.${tool}(${JSON.stringify(step.args)})`)), aux: false };
}

async function stream(response: ServerResponse, item: Item): Promise<void> {
  const sse = new SseWriter(response);
  const send = (type: string, data: JsonRecord) => sse.send({ type, ...data }, type);
  const responseId = nextId('resp_standin_');
  send('response.created', { response: { id: responseId, status: 'in_progress' } });
  if ('hang' in item) return sse.untilClosed();
  const at = { output_index: 0 };
  if ('say' in item) {
    const id = nextId('msg_standin_');
    const done = { type: 'message', id, role: 'assistant', status: 'completed' };
    send('response.output_item.added', { ...at, item: { ...done, status: 'in_progress', content: [] } });
    const part = { item_id: id, ...at, content_index: 0 };
    send('response.content_part.added', { ...part, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of textDeltas(item.say)) send('response.output_text.delta', { ...part, delta });
    send('response.output_text.done', { ...part, text: item.say });
    const content = [{ type: 'output_text', text: item.say, annotations: [] }];
    send('response.output_item.done', { ...at, item: { ...done, content } });
  } else {
    const id = nextId('ctc_standin_');
    const call = { type: 'custom_tool_call', id, call_id: item.callId, name: 'exec' };
    send('response.output_item.added', { ...at, item: { ...call, input: '', status: 'in_progress' } });
    send('response.custom_tool_call_input.delta', { item_id: id, ...at, delta: item.exec });
    send('response.custom_tool_call_input.done', { item_id: id, ...at, input: item.exec });
    send('response.output_item.done', { ...at, item: { ...call, input: item.exec, status: 'completed' } });
  }
  const usage = {
    input_tokens: 10,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 5,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 15,
  };
  send('response.completed', { response: { id: responseId, status: 'completed', usage } });
  sse.end();
}

async function serve(call: StandinCall, response: ServerResponse, context: FamilyContext): Promise<void> {
  const body = asRecord(call.body);
  if (call.method !== 'POST' || !call.path.endsWith('/responses') || body === undefined) {
    return sendJson(response, 404, { error: { message: 'stand-in: not scripted', type: 'not_found' } });
  }
  const reading = readResponsesRequest(body);
  const common = {
    instructions: reading.instructions,
    userTexts: reading.userTexts,
    // Code mode lists MCP tools only inside the exec sandbox (ALL_TOOLS), never in the request.
    kandevTools: null,
    otherMcpTools: [],
    toolResults: reading.toolResults,
    raw: body,
  };
  const side = responsesSideKind(body, reading);
  if (side !== undefined) {
    context.record({ ...common, kind: 'side', step: null });
    return stream(response, { say: side === 'reviewer' ? JSON.stringify(REVIEWER_VERDICT) : 'Kandev test session' });
  }
  const step = scriptedStep(context.turns, reading.prompt, reading.stepIndex);
  const { item, aux } = itemFor(step, reading);
  context.record({ ...common, kind: 'main', step: aux ? null : step });
  return stream(response, item);
}

export const openaiResponses: ModelFamily = { name: 'openai-responses', serve };
