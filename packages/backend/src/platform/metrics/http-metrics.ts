import type { Request, RequestHandler, Response } from 'express';
import type { Instruments } from '@kandev/metrics';

/** A request no route matched (a 404, a refusal before routing): one label, never the raw URL. */
export const UNMATCHED_ROUTE = '(unmatched)';
/** What the web console's static files answered (no express route; the path is the browser's). */
export const CONSOLE_ROUTE = '(console)';

const ROUTE_MARK = 'kandevMetricsRoute';
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Labels a response no express route answers (the console's files) unless it fails. */
export function markRoute(res: Response, label: string): void {
  (res.locals as Record<string, unknown>)[ROUTE_MARK] = label;
}

/**
 * The route template (`/api/tasks/:id`), never the URL: a label per route, not per id. Read when the
 * response ends, so express has matched by then.
 */
function routeOf(req: Request, res: Response): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path === 'string') return `${req.baseUrl}${path}`;
  const mark = (res.locals as Record<string, unknown>)[ROUTE_MARK];
  return typeof mark === 'string' && res.statusCode < 400 ? mark : UNMATCHED_ROUTE;
}

/**
 * HTTP requests by method, route template and status, and their duration (by status class). The
 * middleware's cost per request is one `close` listener and two increments of cached children: the
 * label sets are bounded by the routes, so the cache is too.
 */
export function httpMetrics(instruments: Instruments): { httpRequests: RequestHandler } {
  const requests = instruments.counter({
    name: 'kandev_backend_http_requests_total',
    help: 'HTTP requests by method, route template (never the raw URL; (unmatched) when no route matched) and status code',
    labelNames: ['method', 'route', 'status'] as const,
  });
  const seconds = instruments.histogram({
    name: 'kandev_backend_http_request_duration_seconds',
    help: 'HTTP request duration until the response ended (for GET /api/events: the stream lifetime), by method, route template and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: HTTP_BUCKETS,
  });
  type Children = { count: { inc(): void }; observe: { observe(value: number): void } };
  const children = new Map<string, Children>();
  const childrenFor = (method: string, route: string, status: number): Children => {
    const key = `${method} ${status} ${route}`;
    let found = children.get(key);
    if (found === undefined) {
      const status_class = `${Math.floor(status / 100)}xx`;
      found = {
        count: requests.labels({ method, route, status: String(status) }),
        observe: seconds.labels({ method, route, status_class }),
      };
      children.set(key, found);
    }
    return found;
  };
  const middleware: RequestHandler = (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const child = childrenFor(req.method, routeOf(req, res), res.statusCode);
      child.count.inc();
      child.observe.observe(Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
  return { httpRequests: middleware };
}
