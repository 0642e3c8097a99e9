import { z } from 'zod';
import type { RouteDoc } from '../../platform/openapi/openapi';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { ParentQuestionViewSchema } from './parent-question';

/** `a`, `b`, `c`: a long field list that still wraps in Markdown. */
const fields = (...names: string[]) => names.map((name) => `\`${name}\``).join(', ');

const PARENT_QUESTION = `with ${fields('id', 'child_task_id', 'child_session_id', 'parent_task_id', 'status', 'closed_reason', 'questions', 'context', 'blocked_reason', 'answer', 'created_at', 'answered_at', 'closed_at')}, ...`;

export const PARENT_QUESTION_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/tasks/:id/parent-questions',
    operationId: 'listParentQuestions',
    summary: "List a task's questions to its parent, oldest first",
    description: "Read-only: only the parent's agent answers them (docs/autopilot.md).",
    params: IdParamsSchema,
    ok: {
      status: 200,
      description: `\`{task_id, parent_questions: [parent question]}\`; a parent question is an object ${PARENT_QUESTION}`,
      schema: z
        .object({ task_id: z.string(), parent_questions: z.array(ParentQuestionViewSchema) })
        .strict()
        .meta({ id: 'ParentQuestionList' }),
    },
  },
  {
    method: 'get',
    path: '/api/parent-questions/:id',
    operationId: 'getParentQuestion',
    summary: 'Get a parent question',
    params: IdParamsSchema,
    ok: { status: 200, description: `the parent question ${PARENT_QUESTION}`, schema: ParentQuestionViewSchema },
  },
];
