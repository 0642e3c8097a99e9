import { z } from 'zod';
import type { StoredMessage } from '../../catalogue/messages/message-store';
import { PROMPT_STATUSES, type QueuedPrompt } from '../prompt-queue/queued-prompt';
import {
  AnswerDeliveryKindSchema,
  AnswerSchema,
  ClosedReasonSchema,
  effectiveState,
  type Question,
  QuestionKindSchema,
  QuestionStateSchema,
  StoredQuestionItemSchema,
} from '../questions/question';
import type { SessionHistoryEntry } from '../sessions/store/session-history';
import {
  ParentClosedReasonSchema,
  type ParentQuestion,
  ParentQuestionStatusSchema,
} from '../parent-questions/parent-question';

// Pure: one entry of a task's timeline (GET /api/tasks/:id/timeline), from the row it is built from.
// Every entry names its session and its time (`at`, ISO 8601 with date); an entry is placed by when it
// began (a prompt by when it was queued), and later facts (delivered, answered, finished) fill it in.

/** A tool call's output, cut to this many characters in `result_summary`. */
export const RESULT_SUMMARY_MAX = 500;

const base = {
  id: z.string().describe('`<kind>:<id of the row it comes from>`: stable across reads'),
  session_id: z.string().nullable().describe('the session it happened in; null for a prompt no session has taken yet'),
  at: z.string().describe('when it began, ISO 8601 (UTC, with date)'),
};

const duration = z.number().int().nullable().describe('milliseconds from start to finish; null until it finished');

const PromptEntrySchema = z
  .object({
    ...base,
    kind: z.literal('prompt'),
    prompt_id: z.string(),
    text: z.string(),
    source: z.string().describe("who queued it: 'operator' or 'task:<id>'"),
    status: z.enum(PROMPT_STATUSES).describe('queued → dispatched (delivered to the agent) → completed | failed'),
    queued_at: z.string(),
    delivered_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    stop_reason: z.string().nullable().describe("a completed turn's ACP stop reason (end_turn, cancelled, ...)"),
    error: z.string().nullable().describe('why it failed; on a completed turn, a warning (or null)'),
    duration_ms: duration.describe("the turn's milliseconds from delivery to its end; null until it ended"),
  })
  .strict();

const ToolCallEntrySchema = z
  .object({
    ...base,
    kind: z.literal('tool_call'),
    message_id: z.string().describe('its conversation entry'),
    tool_call_id: z.string().nullable(),
    prompt_id: z.string().nullable(),
    title: z.string(),
    tool_kind: z.string().nullable(),
    status: z.string().describe('pending, in_progress, completed or failed'),
    input: z.unknown().describe('the arguments: JSON when they parse, else the text; null when unknown'),
    result_summary: z.string().nullable().describe(`the output's first ${RESULT_SUMMARY_MAX} characters`),
    finished_at: z.string().nullable(),
    duration_ms: duration,
  })
  .strict();

const QuestionEntrySchema = z
  .object({
    ...base,
    kind: z.literal('question'),
    question_id: z.string(),
    question_kind: QuestionKindSchema.describe("'user' (ask_user_question_kandev) or 'permission' (an ACP request)"),
    state: QuestionStateSchema,
    questions: z.array(StoredQuestionItemSchema),
    context: z.string().nullable(),
    answers: z.array(AnswerSchema).nullable().describe('what was answered (kept after answering)'),
    answered_by: z.string().nullable().describe('who answered'),
    answered_at: z.string().nullable(),
    answer_delivery: AnswerDeliveryKindSchema.nullable().describe(
      'where the answer went; `undeliverable`: the call had ended and the session has no agent to prompt',
    ),
    closed_reason: ClosedReasonSchema.nullable(),
    expires_at: z.string(),
  })
  .strict();

const ParentQuestionEntrySchema = z
  .object({
    ...base,
    kind: z.literal('parent_question'),
    question_id: z.string(),
    parent_task_id: z.string(),
    status: ParentQuestionStatusSchema,
    questions: z.array(StoredQuestionItemSchema),
    context: z.string().nullable(),
    blocked_reason: z.string(),
    answer: z.string().nullable().describe("the parent's accepted answer (kept after answering)"),
    answered_by_task_id: z.string().nullable(),
    answered_by_session_id: z.string().nullable(),
    answered_at: z.string().nullable(),
    closed_reason: ParentClosedReasonSchema.nullable(),
    closed_at: z.string().nullable(),
  })
  .strict();

const StateChangeEntrySchema = z
  .object({
    ...base,
    kind: z.literal('state_change'),
    state: z.string(),
    previous_state: z.string().nullable(),
    error: z.string().nullable().describe('the error recorded with the change (why it failed), if any'),
  })
  .strict();

const ToolsRevisionEntrySchema = z
  .object({
    ...base,
    kind: z.literal('tools_revision'),
    revision: z.number().int(),
    providers: z.array(z.string()),
    added: z.array(z.string()).describe('tool names served from this revision on'),
    removed: z.array(z.string()).describe('tool names no longer served'),
  })
  .strict();

export const TimelineEntryViewSchema = z
  .discriminatedUnion('kind', [
    PromptEntrySchema,
    ToolCallEntrySchema,
    QuestionEntrySchema,
    ParentQuestionEntrySchema,
    StateChangeEntrySchema,
    ToolsRevisionEntrySchema,
  ])
  .meta({ id: 'TimelineEntry' });
export type TimelineEntryView = z.infer<typeof TimelineEntryViewSchema>;
export type TimelineKind = TimelineEntryView['kind'];

function millisBetween(from: string | null, to: string | null): number | null {
  if (from === null || to === null) return null;
  return Math.max(0, Date.parse(to) - Date.parse(from));
}

export function promptEntry(prompt: QueuedPrompt): TimelineEntryView {
  return {
    id: `prompt:${prompt.id}`,
    kind: 'prompt',
    session_id: prompt.sessionId,
    at: prompt.createdAt,
    prompt_id: prompt.id,
    text: prompt.prompt,
    source: prompt.source,
    status: prompt.status,
    queued_at: prompt.createdAt,
    delivered_at: prompt.dispatchedAt,
    finished_at: prompt.finishedAt,
    stop_reason: prompt.stopReason,
    error: prompt.error,
    duration_ms: millisBetween(prompt.dispatchedAt, prompt.finishedAt),
  };
}

const ToolCallMetadataSchema = z.looseObject({
  tool_call_id: z.string().nullable().optional().catch(null),
  prompt_id: z.string().nullable().optional().catch(null),
  status: z.string().optional().catch(undefined),
  kind: z.string().nullable().optional().catch(null),
  input: z.unknown().optional(),
  output: z.string().nullable().optional().catch(null),
  finished_at: z.string().optional().catch(undefined),
});

export function toolCallEntry({ message }: StoredMessage): TimelineEntryView {
  const meta = ToolCallMetadataSchema.parse(message.metadata);
  const finishedAt = meta.finished_at ?? null;
  const output = meta.output ?? null;
  return {
    id: `tool_call:${message.id}`,
    kind: 'tool_call',
    session_id: message.sessionId,
    at: message.createdAt,
    message_id: message.id,
    tool_call_id: meta.tool_call_id ?? null,
    prompt_id: meta.prompt_id ?? null,
    title: message.content,
    tool_kind: meta.kind ?? null,
    status: meta.status ?? 'pending',
    input: meta.input ?? null,
    result_summary: output === null ? null : output.slice(0, RESULT_SUMMARY_MAX),
    finished_at: finishedAt,
    duration_ms: millisBetween(message.createdAt, finishedAt),
  };
}

/** `now`: a pending question past its expiry reads as expired. */
export function questionEntry(question: Question, now: string): TimelineEntryView {
  const state = effectiveState(question, now);
  return {
    id: `question:${question.id}`,
    kind: 'question',
    session_id: question.sessionId,
    at: question.createdAt,
    question_id: question.id,
    question_kind: question.kind,
    state,
    questions: question.questions,
    context: question.context,
    answers: question.answers,
    answered_by: question.answeredBy,
    answered_at: question.answeredAt,
    answer_delivery: question.answerDelivery,
    closed_reason: state === 'expired' ? (question.closedReason ?? 'timeout') : question.closedReason,
    expires_at: question.expiresAt,
  };
}

/** An autopilot child's question to its parent (a permission request under autopilot is one too). */
export function parentQuestionEntry(question: ParentQuestion): TimelineEntryView {
  return {
    id: `parent_question:${question.id}`,
    kind: 'parent_question',
    session_id: question.childSessionId,
    at: question.createdAt,
    question_id: question.id,
    parent_task_id: question.parentTaskId,
    status: question.status,
    questions: question.questions,
    context: question.context,
    blocked_reason: question.blockedReason,
    answer: question.answer,
    answered_by_task_id: question.answeredByTaskId,
    answered_by_session_id: question.answeredBySessionId,
    answered_at: question.answeredAt,
    closed_reason: question.closedReason,
    closed_at: question.closedAt,
  };
}

export function historyEntry(entry: SessionHistoryEntry): TimelineEntryView {
  const common = { id: `${entry.kind}:${entry.id}`, session_id: entry.sessionId, at: entry.at };
  if (entry.kind === 'state_change') {
    const { state, previousState, error } = entry;
    return { ...common, kind: 'state_change', state, previous_state: previousState, error };
  }
  const { revision, providers, added, removed } = entry;
  return { ...common, kind: 'tools_revision', revision, providers, added, removed };
}
