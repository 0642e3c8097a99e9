import { z } from 'zod';
import { askUserQuestionTool } from '@kandev/protocol';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { AnswerBodySchema, ListQuestionsQuerySchema, QuestionCountsSchema, QuestionViewSchema } from './question';
import { AnsweredQuestionViewSchema } from './question-routes';

/** `a`, `b`, `c`: a long field list that still wraps in Markdown. */
const fields = (...names: string[]) => names.map((name) => `\`${name}\``).join(', ');

const QUESTION = `with ${fields('id', 'task_id', 'session_id', 'call_id', 'kind', 'state', 'questions', 'context', 'answers', 'answered_by', 'closed_reason', 'created_at', 'answered_at', 'expires_at')}`;

export const QUESTION_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/questions',
    operationId: 'listQuestions',
    summary: 'List operator questions, oldest or newest first, with counts per state',
    description:
      'Operator questions only, never parent questions: the inbox. Filters: `state`, `task_id`, ' +
      '`workspace_id`; a page at a time (`next_cursor`). `sort` is `created_asc` (default) or `created_desc`; ' +
      'pass `next_cursor` back with the same query (a cursor from another sort is a 400). `counts` has how many questions are in each state ' +
      'under the same filters except `state`, so one call fills the inbox tabs; each count stops at 1000 ' +
      '(1000: that many or more), so a long history costs the call nothing.',
    query: ListQuestionsQuerySchema,
    ok: {
      status: 200,
      description: `\`{questions: [question], next_cursor, counts: {pending, answered, expired, cancelled}}\`; a question is an object ${QUESTION}`,
      schema: z
        .object({
          questions: z.array(QuestionViewSchema),
          next_cursor: z.string().nullable(),
          counts: QuestionCountsSchema,
        })
        .strict()
        .meta({ id: 'QuestionPage' }),
    },
  },
  {
    method: 'get',
    path: '/api/questions/:id',
    operationId: 'getQuestion',
    summary: 'Get an operator question',
    params: IdParamsSchema,
    ok: { status: 200, description: `the question ${QUESTION}`, schema: QuestionViewSchema },
  },
  {
    method: 'post',
    path: '/api/questions/:id/answer',
    operationId: 'answerQuestion',
    summary: 'Answer an operator question',
    description:
      "One answer per question: an offered option's label, or `text` when it has no options (400, nothing " +
      'changes).',
    params: IdParamsSchema,
    body: AnswerBodySchema,
    ok: {
      status: 200,
      description:
        `the question plus \`delivery\`: \`{to: "waiting_call"}\` (the held \`${askUserQuestionTool.name}\` call ` +
        'returns it); the call being gone (a restart, or its replica died), `{to: "queued_prompt", ' +
        'queued_prompt_id}` (queued for the session\'s agent) or `{to: "undeliverable", reason}` (an MCP-only ' +
        'session, or one that takes no prompts: recorded, nothing queued)',
      schema: AnsweredQuestionViewSchema,
    },
    errors: { 409: 'the question is no longer pending' },
  },
];
