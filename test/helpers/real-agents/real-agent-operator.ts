// What the operator does with a real agent over REST: post a prompt and wait for its turn (failing at
// once on a permission question nobody expected), wait for the question a turn asks and answer it by
// the kind of the agent's option, and read back a tools report the scripted model made.
import type { QueuedPromptView } from '../agent-runtime';
import { type ToolsReport, parseToolsReport } from '../model-apis/model-script';
import { waitUntil } from '../wait';
import type { RealAgentWorld } from './real-agent-world';

/** Bounds a turn of a real agent against a loopback stand-in (they take well under a second). */
const TURN_TIMEOUT_MS = 30_000;

export interface QuestionView {
  id: string;
  kind: 'user' | 'permission';
  state: string;
  questions: { id: string; prompt: string; options?: { label: string; description?: string }[] }[];
}

/** ACP permission option kinds; a permission question's option description is its kind. */
export type OptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

export async function questionsOf(world: RealAgentWorld, state?: string): Promise<QuestionView[]> {
  const query = state === undefined ? `task_id=${world.taskId}` : `task_id=${world.taskId}&state=${state}`;
  const listed = await world.runtime.api.request<{ questions: QuestionView[] }>('GET', `/api/questions?${query}`);
  if (listed.status !== 200) throw new Error(`GET /api/questions -> ${listed.status}`);
  return listed.body.questions;
}

async function promptView(world: RealAgentWorld, promptId: string): Promise<QueuedPromptView> {
  const found = (await world.runtime.prompts(world.sessionId)).find((p) => p.id === promptId);
  if (found === undefined) throw new Error(`prompt ${promptId} is not listed`);
  return found;
}

const isDone = (p: QueuedPromptView) => p.status === 'completed' || p.status === 'failed';
const describeQuestion = (q: QuestionView) => `${q.kind} question "${q.questions[0]?.prompt ?? ''}"`;

/** What a wait found: the awaited fact, or a fact that rules it out (no point waiting on). */
type Outcome<T> = { ok: T } | { fail: string };

async function settle<T>(world: RealAgentWorld, what: string, probe: () => Promise<Outcome<T> | undefined>) {
  const outcome = await waitUntil(probe, { timeoutMs: TURN_TIMEOUT_MS, logs: world.logs, what });
  if ('fail' in outcome) throw new Error(`${what}: ${outcome.fail}\n${world.logs()}`);
  return outcome.ok;
}

/** Posts a prompt; resolves its id. */
export async function postPrompt(world: RealAgentWorld, text: string): Promise<string> {
  return (await world.runtime.postPrompt(world.sessionId, text)).queued_prompt_id;
}

/** Waits until the prompt's turn is over; a pending question meanwhile fails the wait at once. */
export function waitForPromptDone(world: RealAgentWorld, promptId: string): Promise<QueuedPromptView> {
  return settle<QueuedPromptView>(world, `prompt ${promptId} done`, async () => {
    const prompt = await promptView(world, promptId);
    if (isDone(prompt)) return { ok: prompt };
    const [question] = await questionsOf(world, 'pending');
    return question === undefined ? undefined : { fail: `the turn asked a ${describeQuestion(question)}` };
  });
}

/** Posts a prompt and waits for its turn; fails on a question nobody expected. */
export async function runPrompt(world: RealAgentWorld, text: string): Promise<QueuedPromptView> {
  return waitForPromptDone(world, await postPrompt(world, text));
}

/** Waits for the pending permission question the prompt's turn asks; fails if the turn ends first. */
export function waitForPermissionQuestion(world: RealAgentWorld, promptId: string): Promise<QuestionView> {
  return settle<QuestionView>(world, `a permission question for prompt ${promptId}`, async () => {
    const [question] = await questionsOf(world, 'pending');
    if (question !== undefined) return { ok: question };
    const prompt = await promptView(world, promptId);
    if (!isDone(prompt)) return undefined;
    return { fail: `the turn ended (${prompt.status}, ${prompt.stop_reason ?? prompt.error ?? ''}) without asking` };
  });
}

/** Answers a permission question with the agent's option of `kind`; resolves the label it chose. */
export async function answerWith(world: RealAgentWorld, question: QuestionView, kind: OptionKind): Promise<string> {
  const options = question.questions[0]?.options ?? [];
  const option = options.find((o) => o.description === kind);
  if (option === undefined) throw new Error(`no ${kind} option in ${JSON.stringify(options)}`);
  const answered = await world.runtime.api.request('POST', `/api/questions/${question.id}/answer`, {
    answers: [{ question_index: 0, option: option.label }],
  });
  if (answered.status !== 200) throw new Error(`answer -> ${answered.status}: ${JSON.stringify(answered.body)}`);
  return option.label;
}

/** The tools report in the agent's latest reply (what the scripted model could discover). */
export async function lastToolsReport(world: RealAgentWorld): Promise<ToolsReport> {
  const replies = await world.runtime.agentReplies(world.taskId);
  const report = parseToolsReport(replies.at(-1) ?? '');
  if (report === undefined)
    throw new Error(`the last reply is no tools report: ${JSON.stringify(replies.at(-1))}\n${world.logs()}`);
  return report;
}
