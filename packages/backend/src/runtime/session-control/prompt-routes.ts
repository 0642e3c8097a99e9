import { z } from 'zod';
import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema, IdSchema } from '../../platform/store/id-schema';
import { EnqueuePromptBodySchema, type PromptService } from './prompt-service';
import { PROMPT_STATUSES, toQueuedPromptView } from '../prompt-queue/queued-prompt';

/** POST /api/sessions/:id/prompts: what was queued, and which parent questions it superseded. */
export const EnqueuedPromptViewSchema = z
  .object({
    queued_prompt_id: z.string(),
    message_id: z.string().describe("the prompt's entry in the task's conversation"),
    session_id: z.string().nullable(),
    status: z.enum(PROMPT_STATUSES),
    superseded_question_ids: z.array(z.string()).describe('parent questions this prompt superseded'),
  })
  .strict()
  .meta({ id: 'EnqueuedPrompt' });

export const PromptParamsSchema = z.object({ id: IdSchema, prompt_id: IdSchema }).strict();

/** An operator's prompts for a session: queue one (202, it runs when the agent is free), list them. */
export function createPromptRoutes(prompts: PromptService): Router {
  const router = Router();
  router.post('/api/sessions/:id/prompts', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(EnqueuePromptBodySchema, req.body ?? {}, 'request body');
    const { queued, message, superseded } = await prompts.enqueue(id, body);
    const view: z.output<typeof EnqueuedPromptViewSchema> = {
      queued_prompt_id: queued.id,
      message_id: message.id,
      session_id: queued.sessionId,
      status: queued.status,
      superseded_question_ids: superseded,
    };
    res.status(202).json(view);
  });
  router.get('/api/sessions/:id/prompts', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json({ items: (await prompts.list(id)).map(toQueuedPromptView) });
  });
  router.delete('/api/sessions/:id/prompts/:prompt_id', async (req, res) => {
    const { id, prompt_id } = parseInput(PromptParamsSchema, req.params, 'path');
    res.json(toQueuedPromptView(await prompts.cancel(id, prompt_id)));
  });
  return router;
}
