// Reading an OpenAI Responses request as Codex sends it: no `instructions`, its own prompt and kandev's
// as developer messages, every earlier item of the conversation in `input`, tools partly as an
// `additional_tools` item. The operator's prompts are user messages that are not Codex's own context
// blocks (`<environment_context>`, `<turn_aborted>`, … all start with '<').
import { asString, field, type JsonRecord, records } from './json-view';

/** Call ids of the stand-in's own calls (listing ALL_TOOLS before a tools report). */
export const AUX_CALL_ID_PREFIX = 'call_aux_';

const OUTPUT_TYPES = new Set(['function_call_output', 'custom_tool_call_output']);
const TITLE_REQUEST = 'Your task is to generate a very short title';

export interface ResponsesReading {
  instructions: string;
  userTexts: string[];
  toolResults: string[];
  /** Tool names offered (namespaced ones by their own name). */
  offered: string[];
  prompt: string;
  stepIndex: number;
  /** The output of the stand-in's own call when it is the last item (the turn's next step reads it). */
  auxOutput: string | undefined;
}

function messageText(item: JsonRecord): string {
  const content = item.content;
  if (typeof content === 'string') return content;
  return records(content)
    .flatMap((c) => asString(c.text) ?? [])
    .join('');
}

function outputText(item: JsonRecord): string {
  const output = item.output;
  if (typeof output === 'string') return output;
  return records(output)
    .flatMap((c) => asString(c.text) ?? [])
    .join('\n');
}

function isOperatorPrompt(item: JsonRecord): boolean {
  return item.type === 'message' && item.role === 'user' && !messageText(item).trimStart().startsWith('<');
}

function offeredNames(body: JsonRecord): string[] {
  const input = records(body.input);
  const tools = [
    ...records(body.tools),
    ...input.filter((i) => i.type === 'additional_tools').flatMap((i) => records(i.tools)),
  ];
  return tools.flatMap((t) => (t.type === 'namespace' ? records(t.tools) : [t])).flatMap((t) => asString(t.name) ?? []);
}

export function readResponsesRequest(body: JsonRecord): ResponsesReading {
  const input = records(body.input);
  const developer = input.filter((i) => i.type === 'message' && (i.role === 'developer' || i.role === 'system'));
  let promptAt = -1;
  for (let i = input.length - 1; i >= 0 && promptAt === -1; i -= 1) {
    if (isOperatorPrompt(input[i] ?? {})) promptAt = i;
  }
  const outputs = input.slice(promptAt + 1).filter((i) => OUTPUT_TYPES.has(asString(i.type) ?? ''));
  const isAux = (i: JsonRecord) => (asString(i.call_id) ?? '').startsWith(AUX_CALL_ID_PREFIX);
  const last = input.at(-1);
  return {
    instructions: [asString(body.instructions) ?? '', ...developer.map(messageText)].join('\n'),
    userTexts: input.filter(isOperatorPrompt).map(messageText),
    toolResults: input.filter((i) => OUTPUT_TYPES.has(asString(i.type) ?? '')).map(outputText),
    offered: offeredNames(body),
    prompt: promptAt === -1 ? '' : messageText(input[promptAt] ?? {}),
    stepIndex: outputs.filter((o) => !isAux(o)).length,
    auxOutput:
      last !== undefined && OUTPUT_TYPES.has(asString(last.type) ?? '') && isAux(last) ? outputText(last) : undefined,
  };
}

export type ResponsesSideKind = 'reviewer' | 'title';

/** Codex's calls beside the conversation (its approval reviewer, the thread title); undefined: main. */
export function responsesSideKind(body: JsonRecord, reading: ResponsesReading): ResponsesSideKind | undefined {
  if (asString(field(body, 'client_metadata', 'x-openai-subagent')) !== undefined) return 'reviewer';
  if (reading.prompt.startsWith(TITLE_REQUEST)) return 'title';
  return undefined;
}

/** The JSON array of names an ALL_TOOLS listing printed (undefined when the output holds none). */
export function listedNames(output: string): string[] | undefined {
  const start = output.indexOf('[');
  const end = output.lastIndexOf(']');
  if (start === -1 || end < start) return undefined;
  try {
    const parsed: unknown = JSON.parse(output.slice(start, end + 1));
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : undefined;
  } catch {
    return undefined;
  }
}
