import { Router } from 'express';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema } from '../../platform/store/id-schema';
import { LinkMrBodySchema, LinkPrBodySchema, toTaskMrView, toTaskPrView } from './review-link';
import type { ReviewLinkService } from './review-link-service';
import {
  CredentialParamsSchema,
  PutCredentialBodySchema,
  toCredentialView,
} from '../../catalogue/credentials/workspace-credential';
import type { WorkspaceCredentialService } from '../../catalogue/credentials/workspace-credential-service';

/** PR/MR links of a task, and a workspace's provider credentials (write-only tokens). */
export function createProviderAutomationRoutes(services: {
  links: ReviewLinkService;
  credentials: WorkspaceCredentialService;
}): Router {
  const { links, credentials } = services;
  const router = Router();
  router.post('/api/tasks/:id/prs', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(LinkPrBodySchema, req.body, 'request body');
    res.status(201).json(toTaskPrView(await links.linkPr(id, body)));
  });
  router.get('/api/tasks/:id/prs', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json({ prs: (await links.listPrs(id)).map(toTaskPrView) });
  });
  router.post('/api/tasks/:id/mrs', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const body = parseInput(LinkMrBodySchema, req.body, 'request body');
    res.status(201).json(toTaskMrView(await links.linkMr(id, body)));
  });
  router.get('/api/tasks/:id/mrs', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json({ mrs: (await links.listMrs(id)).map(toTaskMrView) });
  });
  router.put('/api/workspaces/:id/credentials/:provider', async (req, res) => {
    const { id, provider } = parseInput(CredentialParamsSchema, req.params, 'path');
    const body = parseInput(PutCredentialBodySchema, req.body, 'request body');
    res.json(toCredentialView(await credentials.put(id, provider, body)));
  });
  router.get('/api/workspaces/:id/credentials', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    res.json({ credentials: (await credentials.list(id)).map(toCredentialView) });
  });
  router.delete('/api/workspaces/:id/credentials/:provider', async (req, res) => {
    const { id, provider } = parseInput(CredentialParamsSchema, req.params, 'path');
    await credentials.remove(id, provider);
    res.status(204).end();
  });
  return router;
}
