import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema, IdSchema } from '../../platform/store/id-schema';
import { QuestionStateSchema, QuestionViewSchema, toQuestionView } from './question';
import type { QuestionService } from './question-service';

export const ListQuestionsQuerySchema = z
  .object({ state: QuestionStateSchema.optional(), task_id: IdSchema.optional() })
  .strict();

/** POST /api/questions/:id/answer: the question, and where its answer went. */
export const AnsweredQuestionViewSchema = QuestionViewSchema.extend({
  delivery: z
    .discriminatedUnion('to', [
      z.object({ to: z.literal('waiting_call') }).strict(),
      z.object({ to: z.literal('queued_prompt'), queued_prompt_id: z.string() }).strict(),
    ])
    .describe('the held tool call returns the answer, or (after a backend restart) a queued prompt carries it'),
}).strict();

/** Operators list pending questions and answer them. */
export function createQuestionRoutes(questions: QuestionService): Router {
  const router = Router();
  router.get('/api/questions', async (req, res) => {
    const query = parseInput(ListQuestionsQuerySchema, req.query, 'query');
    const { now, questions: found } = await questions.list({ state: query.state, taskId: query.task_id });
    res.json({ questions: found.map((question) => toQuestionView(question, now)) });
  });
  router.get('/api/questions/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const { now, question } = await questions.get(id);
    res.json(toQuestionView(question, now));
  });
  router.post('/api/questions/:id/answer', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const { now, question, delivery } = await questions.answer(id, req.body);
    const view: z.output<typeof AnsweredQuestionViewSchema> = {
      ...toQuestionView(question, now),
      delivery:
        delivery.to === 'waiting_call'
          ? { to: 'waiting_call' }
          : { to: 'queued_prompt', queued_prompt_id: delivery.queuedPromptId },
    };
    res.json(view);
  });
  return router;
}
