// The Gemini API (v1beta) as Gemini CLI calls it (GOOGLE_GEMINI_BASE_URL, GEMINI_MODEL pinned):
// `:streamGenerateContent?alt=sse` carries the conversation; `:generateContent` side calls (routing,
// summaries, checks) get a JSON-ish answer; `:countTokens` and embeddings get plausible numbers.
import type { ServerResponse } from 'node:http';
import { asRecord, asString, field, type JsonRecord, records } from './json-view';
import { familyToolName, SINGLE_UNDERSCORE_NAMING, splitMcpTools } from './model-request';
import { type ModelStep, scriptedStep, toolsReportText } from './model-script';
import { type FamilyContext, type ModelFamily, sendJson, type StandinCall } from './standin-server';
import { SseWriter, textDeltas } from './sse-writer';

const NAMING = SINGLE_UNDERSCORE_NAMING;
/** What side calls that want JSON get: fields of the schemas Gemini CLI's own checks use. */
const SIDE_JSON = { reasoning: 'stand-in', model_choice: 'flash', next_speaker: 'user', complexity_score: 10 };

type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

interface GeminiReading {
  instructions: string;
  userTexts: string[];
  toolResults: string[];
  offered: string[];
  prompt: string;
  stepIndex: number;
}

const partsOf = (content: JsonRecord) => records(content.parts);
const textOf = (content: JsonRecord) =>
  partsOf(content)
    .flatMap((p) => (p.thought === true ? [] : (asString(p.text) ?? [])))
    .join('\n');
const isOperatorPrompt = (content: JsonRecord) =>
  content.role === 'user' && !partsOf(content).some((p) => p.functionResponse !== undefined) && textOf(content) !== '';

function responseText(part: JsonRecord): string {
  const response = field(part, 'functionResponse', 'response');
  return asString(field(response, 'output')) ?? JSON.stringify(response);
}

function readGeminiRequest(body: JsonRecord): GeminiReading {
  const contents = records(body.contents);
  const system = body.systemInstruction;
  let promptAt = -1;
  for (let i = contents.length - 1; i >= 0 && promptAt === -1; i -= 1) {
    if (isOperatorPrompt(contents[i] ?? {})) promptAt = i;
  }
  const calls = contents
    .slice(promptAt + 1)
    .filter((c) => c.role === 'model' && partsOf(c).some((p) => p.functionCall !== undefined));
  return {
    instructions: typeof system === 'string' ? system : textOf(asRecord(system) ?? {}),
    userTexts: contents.filter(isOperatorPrompt).map(textOf),
    toolResults: contents.flatMap(partsOf).flatMap((p) => (p.functionResponse === undefined ? [] : [responseText(p)])),
    offered: records(body.tools)
      .flatMap((t) => records(t.functionDeclarations))
      .flatMap((f) => asString(f.name) ?? []),
    prompt: promptAt === -1 ? '' : textOf(contents[promptAt] ?? {}),
    stepIndex: calls.length,
  };
}

/** How Gemini CLI says a step: chunks of parts (one SSE frame each), and whether to hang after the first. */
function partsFor(step: ModelStep, reading: GeminiReading): { chunks: Part[][]; hang: boolean } {
  const say = (text: string) => ({ chunks: textDeltas(text).map((t) => [{ text: t }]), hang: false });
  const call = (name: string, args: Record<string, unknown>) => ({
    chunks: [[{ functionCall: { name, args } }]],
    hang: false,
  });
  if ('say' in step) return say(step.say);
  if ('reportTools' in step) return say(toolsReportText(splitMcpTools(reading.offered, NAMING)));
  if ('hang' in step) return { chunks: [[{ text: 'Working on it' }]], hang: true };
  if ('shell' in step) return call('run_shell_command', { command: step.shell, description: 'The test asks for it' });
  return call(familyToolName(step.callKandev, NAMING), step.args);
}

async function stream(response: ServerResponse, model: string, answer: { chunks: Part[][]; hang: boolean }) {
  const sse = new SseWriter(response);
  for (const [i, parts] of answer.chunks.entries()) {
    const last = i === answer.chunks.length - 1 && !answer.hang;
    const candidate = { content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
    const usageMetadata = { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 };
    sse.send({ candidates: [candidate], ...(last ? { usageMetadata } : {}), modelVersion: model });
    if (answer.hang) return sse.untilClosed();
  }
  sse.end();
}

function sideAnswer(response: ServerResponse, body: JsonRecord | undefined, model: string): void {
  const config = asRecord(body?.generationConfig);
  const wantsJson =
    config?.responseMimeType === 'application/json' ||
    config?.responseJsonSchema !== undefined ||
    config?.responseSchema !== undefined;
  const text = wantsJson ? JSON.stringify(SIDE_JSON) : 'Kandev test';
  const candidates = [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }];
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  sendJson(response, 200, { candidates, usageMetadata, modelVersion: model });
}

async function serve(call: StandinCall, response: ServerResponse, context: FamilyContext): Promise<void> {
  const match = /\/models\/([^:/]+):(\w+)$/.exec(call.path);
  const body = asRecord(call.body);
  const [, model = 'gemini-standin', method = ''] = match ?? [];
  if (call.method !== 'POST' || match === null)
    return sendJson(response, 404, { error: { code: 404, message: 'stand-in' } });
  if (method === 'countTokens') return sendJson(response, 200, { totalTokens: 100 });
  if (method === 'embedContent') return sendJson(response, 200, { embedding: { values: [0, 0, 0, 0] } });
  const reading = readGeminiRequest(body ?? {});
  const visible = splitMcpTools(reading.offered, NAMING);
  const common = {
    instructions: reading.instructions,
    userTexts: reading.userTexts,
    kandevTools: visible.kandev,
    otherMcpTools: visible.other,
    toolResults: reading.toolResults,
    raw: body,
  };
  if (method !== 'streamGenerateContent') {
    context.record({ ...common, kind: 'side', step: null });
    return sideAnswer(response, body, model);
  }
  const step = scriptedStep(context.turns, reading.prompt, reading.stepIndex);
  context.record({ ...common, kind: 'main', step });
  return stream(response, model, partsFor(step, reading));
}

export const geminiGenerate: ModelFamily = { name: 'gemini-generate', serve };
