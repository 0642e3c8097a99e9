import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from '../logger';
import { createErrorMiddleware, notFoundHandler } from './error-middleware';
import { requestId } from './request-id';

export const BODY_LIMIT = '1mb';

/**
 * The express app: request ids, JSON bodies (1 MB), the given routers, one error middleware. `auth`
 * guards every /api route (main.ts always passes it; in-process tests of single routers may not).
 */
export function createApp(
  logger: Logger,
  routers: readonly Router[],
  options: { auth?: RequestHandler } = {},
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  // Before the body parser: an unauthenticated request's body is never read.
  if (options.auth !== undefined) app.use('/api', options.auth);
  app.use(express.json({ limit: BODY_LIMIT }));
  for (const router of routers) app.use(router);
  app.use(notFoundHandler);
  app.use(createErrorMiddleware(logger));
  return app;
}
