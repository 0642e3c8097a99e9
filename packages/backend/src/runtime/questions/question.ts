import { z } from 'zod';
import { AppError, type askUserQuestionTool, MAX_PAGE_LIMIT, QuestionSchema } from '@kandev/protocol';
import { IdSchema } from '../../platform/store/id-schema';
import { issuesOf } from '../../platform/http/parse';

// Pure: what an operator question holds, the tool's and the answer's schemas, answer validation, views.

export const QUESTION_STATES = ['pending', 'answered', 'expired', 'cancelled'] as const;
export type QuestionState = (typeof QUESTION_STATES)[number];
export const QuestionStateSchema = z.enum(QUESTION_STATES);

/**
 * 'user': asked of the operator by ask_user_question_kandev. 'permission': an agent's ACP permission
 * request under policy ask (docs/agents.md#permission-policy), one item with the agent's options.
 * Parent questions have their own table.
 */
export const QUESTION_KINDS = ['user', 'permission'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const QuestionKindSchema = z.enum(QUESTION_KINDS);

/** Why a question ended without an answer. */
export const CLOSED_REASONS = ['timeout', 'cancelled', 'session_stopped'] as const;
export type ClosedReason = (typeof CLOSED_REASONS)[number];
export const ClosedReasonSchema = z.enum(CLOSED_REASONS);

/**
 * Where an answer went: the held tool call, a prompt queued for the session's agent (the call was
 * gone), or nowhere (the call was gone and the session has no agent to prompt: recorded, not queued).
 */
export const ANSWER_DELIVERIES = ['waiting_call', 'queued_prompt', 'undeliverable'] as const;
export type AnswerDeliveryKind = (typeof ANSWER_DELIVERIES)[number];
export const AnswerDeliveryKindSchema = z.enum(ANSWER_DELIVERIES);

/** ask_user_question_kandev's arguments (the catalogue's schema in @kandev/protocol). */
export type AskUserQuestionArgs = z.infer<typeof askUserQuestionTool.input>;

/** A stored question item: its id is always set (generated `q<n>` when the agent gave none). */
export const StoredQuestionItemSchema = QuestionSchema.extend({ id: z.string().min(1).max(64) });
export type QuestionItem = z.infer<typeof StoredQuestionItemSchema>;

/** One answer per question: the chosen option's label, or free text for a question without options. */
export const AnswerSchema = z
  .object({
    question_index: z.number().int().min(0).max(3),
    question_id: z.string().min(1).max(64),
    option: z.string().min(1).max(60).optional(),
    text: z.string().trim().min(1).max(4000).optional(),
  })
  .strict();
export type Answer = z.infer<typeof AnswerSchema>;

/** POST /api/questions/:id/answer */
export const AnswerBodySchema = z
  .object({
    answers: z
      .array(
        z
          .object({
            question_index: z.number().int().min(0).max(3),
            option: z.string().trim().min(1).max(60).optional(),
            text: z.string().trim().min(1).max(4000).optional(),
          })
          .strict(),
      )
      .min(1)
      .max(4),
  })
  .strict();
export type AnswerBody = z.infer<typeof AnswerBodySchema>;

export interface Question {
  id: string;
  taskId: string;
  sessionId: string;
  callId: string;
  kind: QuestionKind;
  questions: QuestionItem[];
  context: string | null;
  state: QuestionState;
  answers: Answer[] | null;
  answeredBy: string | null;
  closedReason: ClosedReason | null;
  /** Null until answered (and for answers recorded before deliveries were). */
  answerDelivery: AnswerDeliveryKind | null;
  createdAt: string;
  answeredAt: string | null;
  expiresAt: string;
}

/** A pending question past its expiry reads as expired, before anything has written that down. */
export function effectiveState(question: Question, now: string): QuestionState {
  return question.state === 'pending' && question.expiresAt <= now ? 'expired' : question.state;
}

/** The asked items as stored: every question gets an id. */
export function toQuestionItems(args: AskUserQuestionArgs): QuestionItem[] {
  return args.questions.map((item, index) => ({ ...item, id: item.id ?? `q${index + 1}` }));
}

function invalid(message: string, path: string): AppError {
  return new AppError('invalid_argument', `invalid answer: ${message}`, { issues: [{ path, message }] });
}

/** The body must fit the questions: exactly one answer each, an offered option or free text. */
export function parseAnswers(items: readonly QuestionItem[], body: unknown): Answer[] {
  const parsed = AnswerBodySchema.safeParse(body);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error);
    throw new AppError('invalid_argument', `invalid answer: ${issues[0]?.message ?? 'bad body'}`, { issues });
  }
  const given = parsed.data.answers;
  const answers: Answer[] = [];
  for (const [index, item] of items.entries()) {
    const matching = given.filter((a) => a.question_index === index);
    const path = `answers.${index}`;
    if (matching.length !== 1) throw invalid(`question ${index} needs exactly one answer`, path);
    const [answer] = matching as [AnswerBody['answers'][number]];
    if (item.options === undefined) {
      if (answer.text === undefined || answer.option !== undefined) {
        throw invalid(`question ${index} has no options: answer with text`, path);
      }
      answers.push({ question_index: index, question_id: item.id, text: answer.text });
    } else {
      if (answer.option === undefined || answer.text !== undefined) {
        throw invalid(`question ${index} has options: answer with one of them`, path);
      }
      if (!item.options.some((o) => o.label === answer.option)) {
        throw invalid(`"${answer.option}" is not an option of question ${index}`, path);
      }
      answers.push({ question_index: index, question_id: item.id, option: answer.option });
    }
  }
  if (given.length !== items.length) throw invalid(`expected ${items.length} answer(s)`, 'answers');
  return answers;
}

/** An operator question as REST and the events show it. */
export const QuestionViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    session_id: z.string(),
    call_id: z.string(),
    kind: QuestionKindSchema.describe('`user` (the ask tool) or `permission` (an agent permission request)'),
    state: QuestionStateSchema.describe('a pending question past `expires_at` reads as `expired`'),
    questions: z.array(StoredQuestionItemSchema),
    context: z.string().nullable(),
    answers: z.array(AnswerSchema).nullable(),
    answered_by: z.string().nullable(),
    closed_reason: ClosedReasonSchema.nullable(),
    answer_delivery: AnswerDeliveryKindSchema.nullable().describe(
      'where the answer went: `waiting_call` (the held call returned it), `queued_prompt` (the call was gone: ' +
        "a prompt for the session's agent), `undeliverable` (the call was gone and the session has no agent); " +
        'null until answered',
    ),
    created_at: z.string(),
    answered_at: z.string().nullable(),
    expires_at: z.string(),
  })
  .strict()
  .meta({ id: 'Question' });
export type QuestionView = z.output<typeof QuestionViewSchema>;

export function toQuestionView(question: Question, now: string): QuestionView {
  const state = effectiveState(question, now);
  return {
    id: question.id,
    task_id: question.taskId,
    session_id: question.sessionId,
    call_id: question.callId,
    kind: question.kind,
    state,
    questions: question.questions,
    context: question.context,
    answers: question.answers,
    answered_by: question.answeredBy,
    closed_reason: state === 'expired' ? (question.closedReason ?? 'timeout') : question.closedReason,
    answer_delivery: question.answerDelivery,
    created_at: question.createdAt,
    answered_at: question.answeredAt,
    expires_at: question.expiresAt,
  };
}

/** How the chosen answers read to the model. */
export function describeAnswers(question: Question): string {
  return (question.answers ?? [])
    .map((answer) => {
      const item = question.questions[answer.question_index];
      return `- ${item?.prompt ?? answer.question_id} -> ${answer.option ?? answer.text ?? ''}`;
    })
    .join('\n');
}

export const QUESTION_SORTS = ['created_desc', 'created_asc'] as const;
export type QuestionSort = (typeof QUESTION_SORTS)[number];

/** GET /api/questions: the inbox, a page at a time, oldest first unless `sort` says otherwise. */
export const ListQuestionsQuerySchema = z
  .object({
    state: QuestionStateSchema.optional().describe(
      'the state a reader sees: a pending question past its expiry is `expired`',
    ),
    task_id: IdSchema.optional(),
    workspace_id: IdSchema.optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
    cursor: z.string().min(1).max(512).optional(),
    sort: z.enum(QUESTION_SORTS).optional().describe('default `created_asc` (oldest first)'),
  })
  .strict();
export type ListQuestionsQuery = z.infer<typeof ListQuestionsQuerySchema>;

/** Where the previous page ended (created_at, id) and its order; a cursor without `s` is oldest first. */
export const QuestionCursorSchema = z
  .object({ c: z.string().min(1).max(64), i: z.string().min(1).max(128), s: z.enum(QUESTION_SORTS).optional() })
  .strict();

/** How many questions are in each state, under the list's filters other than `state`. */
export const QuestionCountsSchema = z
  .object({
    pending: z.number().int(),
    answered: z.number().int(),
    expired: z.number().int(),
    cancelled: z.number().int(),
  })
  .strict();

export interface QuestionPage {
  now: string;
  questions: Question[];
  nextCursor: string | null;
  counts: Record<QuestionState, number>;
}
