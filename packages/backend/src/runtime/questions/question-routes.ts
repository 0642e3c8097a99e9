import { Router } from 'express';
import { workspaceScope } from '../../platform/access/principal';
import { parseInput } from '../../platform/http/parse';
import { z } from 'zod';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { ListQuestionsQuerySchema, QuestionViewSchema, toQuestionView } from './question';
import type { AnswerDelivery, QuestionService } from './question-service';

/** POST /api/questions/:id/answer: the question, and where its answer went. */
export const AnsweredQuestionViewSchema = QuestionViewSchema.extend({
  delivery: z
    .discriminatedUnion('to', [
      z.object({ to: z.literal('waiting_call') }).strict(),
      z.object({ to: z.literal('queued_prompt'), queued_prompt_id: z.string() }).strict(),
      z.object({ to: z.literal('undeliverable'), reason: z.string() }).strict(),
    ])
    .describe(
      "the held tool call returns the answer; the call being gone, a prompt queued for the session's agent " +
        'carries it, or (no agent will take it) it is recorded undeliverable, with the reason',
    ),
}).strict();

/** Operators list pending questions and answer them. */
export function createQuestionRoutes(questions: QuestionService): Router {
  const router = Router();
  router.get('/api/questions', async (req, res) => {
    const query = parseInput(ListQuestionsQuerySchema, req.query, 'query');
    const page = await questions.page(query, workspaceScope(res));
    res.json({
      questions: page.questions.map((question) => toQuestionView(question, page.now)),
      next_cursor: page.nextCursor,
      counts: page.counts,
    });
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
      delivery: deliveryView(delivery),
    };
    res.json(view);
  });
  return router;
}

function deliveryView(delivery: AnswerDelivery): z.output<typeof AnsweredQuestionViewSchema>['delivery'] {
  switch (delivery.to) {
    case 'waiting_call':
      return { to: 'waiting_call' };
    case 'queued_prompt':
      return { to: 'queued_prompt', queued_prompt_id: delivery.queuedPromptId };
    case 'undeliverable':
      return { to: 'undeliverable', reason: delivery.reason };
  }
}
