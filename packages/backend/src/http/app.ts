import express, { type Express, type Router } from 'express';
import type { Logger } from '../logger';
import { createErrorMiddleware, notFoundHandler } from './error-middleware';
import { requestId } from './request-id';

export const BODY_LIMIT = '1mb';

/** The express app: request ids, JSON bodies (1 MB), the given routers, one error middleware. */
export function createApp(logger: Logger, routers: readonly Router[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(express.json({ limit: BODY_LIMIT }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  for (const router of routers) app.use(router);
  app.use(notFoundHandler);
  app.use(createErrorMiddleware(logger));
  return app;
}
