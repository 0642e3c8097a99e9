import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { toParentQuestionView } from './parent-question';
import { getParentQuestion, listParentQuestions } from './parent-question-queries';

export function createParentQuestionRoutes(deps: { uow: UnitOfWork; clock: () => Date }): Router {
  const router = Router();
  // A task's questions to its parent, for operators: read-only (only the parent's agent answers them, with
  // message_task_kandev; they are never operator questions under /api/questions). 404 for an unknown task.
  router.get('/api/tasks/:id/parent-questions', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const questions = await listParentQuestions(deps.uow, id, deps.clock().toISOString());
    res.json({ task_id: id, parent_questions: questions.map(toParentQuestionView) });
  });
  router.get('/api/parent-questions/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json(toParentQuestionView(await getParentQuestion(deps.uow, id, deps.clock().toISOString())));
  });
  return router;
}
