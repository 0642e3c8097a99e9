import { Router } from 'express';
import { parseInput } from '../http/parse';
import { IdParamsSchema } from '../store/id-schema';
import { LaunchSessionBodySchema } from './agent-session';
import type { SessionService } from './session-service';
import { type LaunchedSessionView, toLaunchConfigView, toSessionView } from './session-view';

export function createSessionRoutes(sessions: SessionService): Router {
  const router = Router();
  router.post('/api/tasks/:id/sessions', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(LaunchSessionBodySchema, req.body ?? {}, 'request body');
    const launched = await sessions.launch(id, body);
    const view: LaunchedSessionView = {
      session_id: launched.session.id,
      mcp_url: launched.mcpUrl,
      mcp_token: launched.config.mcpToken,
      launch_config: toLaunchConfigView(launched.config),
    };
    res.status(201).json(view);
  });
  router.get('/api/sessions/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const { session, runtime } = await sessions.get(id);
    res.json(toSessionView(session, runtime));
  });
  return router;
}
