import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { EnqueuePromptBodySchema, type PromptService } from './prompt-service';
import { toQueuedPromptView } from '../prompt-queue/queued-prompt';

/** An operator's prompts for a session: queue one (202, it runs when the agent is free), list them. */
export function createPromptRoutes(prompts: PromptService): Router {
  const router = Router();
  router.post('/api/sessions/:id/prompts', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(EnqueuePromptBodySchema, req.body ?? {}, 'request body');
    const { queued, message, superseded } = await prompts.enqueue(id, body);
    res.status(202).json({
      queued_prompt_id: queued.id,
      message_id: message.id,
      session_id: queued.sessionId,
      status: queued.status,
      superseded_question_ids: superseded,
    });
  });
  router.get('/api/sessions/:id/prompts', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json({ items: (await prompts.list(id)).map(toQueuedPromptView) });
  });
  return router;
}
