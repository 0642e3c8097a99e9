import { Router } from 'express';
import { z } from 'zod';
import { workspaceScope } from '../../platform/access/principal';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { LaunchSessionBodySchema, ResumeSessionBodySchema } from '../sessions/agent-session';
import type { LaunchedSession, SessionService } from './session-service';
import {
  ListSessionsQuerySchema,
  type SessionSummaryView,
  TaskSessionsQuerySchema,
  toSessionSummaryView,
} from './session-list';
import type { Page } from '../../platform/store/page-cursor';
import type { AgentSession } from '../sessions/agent-session';
import { type LaunchedSessionView, toLaunchConfigView, toSessionView } from './session-view';
import { toSessionToolsView } from './session-tools';

/** Stop and cancel take no options. */
export const EmptyBodySchema = z.object({}).strict();

/** POST /api/sessions/:id/cancel */
export const CancelTurnViewSchema = z
  .object({
    cancelled: z.boolean(),
    prompt_id: z.string().nullable().describe('the prompt whose turn was cancelled'),
  })
  .strict();

/** Shown once, at launch and resume: the token is never stored (the agent env is shown redacted). */
function toLaunchedView(launched: LaunchedSession): LaunchedSessionView {
  return {
    session_id: launched.session.id,
    mcp_url: launched.mcpUrl,
    mcp_token: launched.config.mcpToken,
    launch_config: toLaunchConfigView(launched.config),
  };
}

function toPageView(page: Page<AgentSession>): { sessions: SessionSummaryView[]; next_cursor: string | null } {
  return { sessions: page.items.map(toSessionSummaryView), next_cursor: page.nextCursor };
}

export function createSessionRoutes(sessions: SessionService): Router {
  const router = Router();
  router.post('/api/tasks/:id/sessions', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(LaunchSessionBodySchema, req.body ?? {}, 'request body');
    res.status(201).json(toLaunchedView(await sessions.launch(id, body)));
  });
  router.get('/api/tasks/:id/sessions', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const query = parseInput(TaskSessionsQuerySchema, req.query, 'query');
    res.json(toPageView(await sessions.listForTask(id, query)));
  });
  router.delete('/api/tasks/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    await sessions.archiveTask(id);
    res.status(204).end();
  });
  router.get('/api/sessions', async (req, res) => {
    const query = parseInput(ListSessionsQuerySchema, req.query, 'query');
    res.json(toPageView(await sessions.list(query, workspaceScope(res))));
  });
  router.post('/api/sessions/:id/resume', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    parseInput(ResumeSessionBodySchema, req.body ?? {}, 'request body');
    res.json(toLaunchedView(await sessions.resume(id)));
  });
  router.post('/api/sessions/:id/relaunch', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    parseInput(EmptyBodySchema, req.body ?? {}, 'request body');
    const launched = await sessions.relaunch(id);
    res.status(201).json({ ...toLaunchedView(launched), relaunched_from: launched.relaunchedFrom });
  });
  router.get('/api/sessions/:id', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const { session, runtime } = await sessions.get(id);
    res.json(toSessionView(session, runtime));
  });
  router.get('/api/sessions/:id/tools', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const { session, runtime } = await sessions.get(id);
    res.json(toSessionToolsView(session, runtime));
  });
  router.post('/api/sessions/:id/stop', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    parseInput(EmptyBodySchema, req.body ?? {}, 'request body');
    const { session, runtime } = await sessions.stop(id);
    res.json(toSessionView(session, runtime));
  });
  router.post('/api/sessions/:id/cancel', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    parseInput(EmptyBodySchema, req.body ?? {}, 'request body');
    const cancellation = await sessions.cancelTurn(id);
    const view: z.output<typeof CancelTurnViewSchema> = {
      cancelled: cancellation.cancelled,
      prompt_id: cancellation.promptId,
    };
    res.json(view);
  });
  return router;
}
