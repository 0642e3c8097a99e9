import express, { type Express, type Router } from 'express';
import type { Logger } from '../logger';
import { createErrorMiddleware, notFoundHandler } from './error-middleware';
import { LOOPBACK_ACCESS, type RequestAccess } from './request-access';
import { requestGuard } from './request-guard';
import { requestId } from './request-id';

export const BODY_LIMIT = '1mb';

/**
 * The express app: request ids, the Host/Origin/media-type guard (`access`; loopback only by default),
 * JSON bodies (1 MB), the given routers, one error middleware.
 */
export function createApp(
  logger: Logger,
  routers: readonly Router[],
  access: RequestAccess = LOOPBACK_ACCESS,
): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestId);
  app.use(requestGuard(access));
  app.use(express.json({ limit: BODY_LIMIT }));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  for (const router of routers) app.use(router);
  app.use(notFoundHandler);
  app.use(createErrorMiddleware(logger));
  return app;
}
