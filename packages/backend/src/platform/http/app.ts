import express, { type Express, type RequestHandler, type Router } from 'express';
import type { Logger } from '../logger/logger';
import { createErrorMiddleware, notFoundHandler } from './error-middleware';
import { refuseNul } from './nul-guard';
import { LOOPBACK_ACCESS, type RequestAccess } from './request-access';
import { requestGuard } from './request-guard';
import { requestId } from './request-id';
import { CONSOLE_ROUTE, markRoute } from '../metrics/http-metrics';

export const BODY_LIMIT = '1mb';

export interface AppOptions {
  /** Hosts and origins the guard admits (loopback only by default). */
  access?: RequestAccess;
  /** Guards every /api route (main.ts always passes it; in-process tests of single routers may not). */
  auth?: RequestHandler;
  /** Before `auth` and POST /login: refuses (429) an address after too many failed authentications. */
  authFailureLimit?: RequestHandler;
  /**
   * After `auth` and the body parser on /api and /metrics: each route's right and workspace
   * (platform/access/route-policy.ts).
   */
  policy?: RequestHandler;
  /** GET /metrics (Prometheus text), behind the guard and `auth` like /api. */
  metrics?: RequestHandler;
  /** Counts and times every request by its route template (first, so refusals count too). */
  requestMetrics?: RequestHandler;
  /** GET /readyz: 200 when ready, else 503, with a body of status words only (open, like /healthz). */
  readiness?: () => Promise<{ ready: boolean; body: unknown }>;
  /** The built web console's static files, served at `/` (see console-static.ts). */
  console?: RequestHandler;
}

/**
 * The express app: request ids, the Host/Origin/media-type guard, open /healthz and /readyz, the
 * operator token on /api and /metrics, JSON bodies (1 MB; a NUL anywhere in the request is a 400), the
 * given routers, one error middleware. A foreign Host is refused (403) before a missing token (401),
 * and neither refusal reads the body.
 */
export function createApp(logger: Logger, routers: readonly Router[], options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  if (options.requestMetrics !== undefined) app.use(options.requestMetrics);
  app.use(requestId);
  app.use(requestGuard(options.access ?? LOOPBACK_ACCESS));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const readiness = options.readiness;
  app.get('/readyz', async (_req, res) => {
    if (readiness === undefined) return void res.json({ status: 'ready' });
    const { ready, body } = await readiness();
    res.status(ready ? 200 : 503).json(body);
  });
  if (options.authFailureLimit !== undefined) {
    app.use(['/api', '/metrics'], options.authFailureLimit);
    app.post('/login', options.authFailureLimit);
  }
  if (options.auth !== undefined) app.use(['/api', '/metrics'], options.auth);
  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(refuseNul);
  if (options.policy !== undefined) app.use(['/api', '/metrics'], options.policy);
  if (options.metrics !== undefined) app.get('/metrics', options.metrics);
  for (const router of routers) app.use(router);
  // After the routers, for GET and HEAD only: no route of theirs is shadowed by a file.
  const consoleFiles = options.console;
  if (consoleFiles !== undefined) {
    app.use((req, res, next) => {
      markRoute(res, CONSOLE_ROUTE);
      consoleFiles(req, res, next);
    });
  }
  app.use(notFoundHandler);
  app.use(createErrorMiddleware(logger));
  return app;
}
