import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { CreateAgentProfileBodySchema, toAgentProfileRestView, UpdateAgentProfileBodySchema } from './agent-profile';
import type { AgentProfileService } from './agent-profile-service';

export function createAgentProfileRoutes(profiles: AgentProfileService): Router {
  const router = Router();
  router.post('/api/agent-profiles', async (req, res) => {
    const body = parseInput(CreateAgentProfileBodySchema, req.body, 'request body');
    res.status(201).json(toAgentProfileRestView(await profiles.create(body)));
  });
  router.get('/api/agent-profiles', async (_req, res) => {
    res.json({ agent_profiles: (await profiles.list()).map(toAgentProfileRestView) });
  });
  router.get('/api/agent-profiles/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json(toAgentProfileRestView(await profiles.get(id)));
  });
  router.patch('/api/agent-profiles/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(UpdateAgentProfileBodySchema, req.body, 'request body');
    res.json(toAgentProfileRestView(await profiles.update(id, body)));
  });
  router.delete('/api/agent-profiles/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    await profiles.delete(id);
    res.status(204).end();
  });
  return router;
}
