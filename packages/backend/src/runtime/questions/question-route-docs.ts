import { askUserQuestionTool } from '@kandev/protocol';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { AnswerBodySchema } from './question';
import { ListQuestionsQuerySchema } from './question-routes';

/** `a`, `b`, `c`: a long field list that still wraps in Markdown. */
const fields = (...names: string[]) => names.map((name) => `\`${name}\``).join(', ');

const QUESTION = `with ${fields('id', 'task_id', 'session_id', 'call_id', 'kind', 'state', 'questions', 'context', 'answers', 'answered_by', 'closed_reason', 'created_at', 'answered_at', 'expires_at')}`;
const PARENT_QUESTION = `with ${fields('id', 'child_task_id', 'child_session_id', 'parent_task_id', 'status', 'closed_reason', 'questions', 'context', 'blocked_reason', 'answer', 'created_at', 'answered_at', 'closed_at')}, ...`;

export const QUESTION_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/questions',
    summary: 'List operator questions, oldest first',
    description: 'Operator questions only, never parent questions.',
    query: ListQuestionsQuerySchema,
    ok: { status: 200, description: `\`{questions: [question]}\`; a question is an object ${QUESTION}` },
  },
  {
    method: 'get',
    path: '/api/questions/:id',
    summary: 'Get an operator question',
    params: IdParamsSchema,
    ok: { status: 200, description: `the question ${QUESTION}` },
  },
  {
    method: 'post',
    path: '/api/questions/:id/answer',
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
        'returns it) or, after a backend restart, `{to: "queued_prompt", queued_prompt_id}`',
    },
    errors: { 409: 'the question is no longer pending' },
  },
];

export const PARENT_QUESTION_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/parent-questions',
    summary: "List a task's questions to its parent, oldest first",
    description: "Read-only: only the parent's agent answers them (docs/autopilot.md).",
    params: IdParamsSchema,
    ok: {
      status: 200,
      description: `\`{task_id, parent_questions: [parent question]}\`; a parent question is an object ${PARENT_QUESTION}`,
    },
  },
  {
    method: 'get',
    path: '/api/parent-questions/:id',
    summary: 'Get a parent question',
    params: IdParamsSchema,
    ok: { status: 200, description: `the parent question ${PARENT_QUESTION}` },
  },
];
