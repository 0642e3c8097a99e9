// The OpenAPI document against the real app: it validates as OpenAPI 3.1, names exactly the routes
// the backend registers (the routers createBackend builds plus createApp's own, as main.ts wires
// them), and is served at GET /api/openapi.json behind the API token.
import type { Express } from 'express';
import {
  createApp,
  createAuthMiddleware,
  createInProcessBackend,
  listen,
  metricsRoute,
  openApiDocument,
  openApiPath,
} from '@kandev/backend/testing';
import { type Cleanup, useCleanup } from '../../helpers/cleanup';
import { validateOpenApi } from '../../helpers/openapi-validator';

/** What the test reads of Express 5's router stack: routes, and mounted routers holding more. */
interface Layer {
  route?: { path: string; methods: Record<string, boolean | undefined> };
  handle?: { stack?: Layer[] };
}

/** `GET /api/tasks/{id}` for every route in the stack (routers are mounted at the root). */
function routesOf(stack: readonly Layer[]): string[] {
  return stack.flatMap((layer) => {
    const { route } = layer;
    if (route !== undefined) {
      return Object.keys(route.methods)
        .filter((method) => method !== '_all')
        .map((method) => `${method.toUpperCase()} ${openApiPath(route.path)}`);
    }
    return routesOf(layer.handle?.stack ?? []);
  });
}

function registeredRoutes(app: Express): string[] {
  const { router } = app as unknown as { router: { stack: Layer[] } };
  return routesOf(router.stack);
}

function documentedRoutes(): string[] {
  return Object.entries(openApiDocument().paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  );
}

/** The app as main.ts builds it: every router, the token on /api and /metrics, metrics, readiness. */
async function backendApp(cleanup: Cleanup) {
  const { backend, logger } = await createInProcessBackend(cleanup);
  const app = createApp(logger, backend.routers, {
    auth: createAuthMiddleware(backend.tokens),
    metrics: metricsRoute(backend.metrics.registry, logger),
    readiness: backend.readiness,
  });
  return { app, backend };
}

describe('OpenAPI document', () => {
  const cleanup = useCleanup();

  test('validates as OpenAPI 3.1 (and the validator does refuse a broken one)', () => {
    const document = openApiDocument();
    expect(document.openapi).toBe('3.1.0');
    expect(validateOpenApi(document)).toBe('valid');
    const broken = { ...document, paths: { '/api/x': { get: { responses: { 200: {} } } } } };
    expect(validateOpenApi(broken)).toMatch(/description/);
  });

  test('documents every registered route, and only those', async () => {
    const { app } = await backendApp(cleanup);
    const registered = new Set(registeredRoutes(app));
    const documented = new Set(documentedRoutes());
    expect(registered.size).toBeGreaterThan(30);
    // Named on failure: add the route's entry to its folder's *-route-docs.ts (composition/api-catalogue.ts).
    expect({
      undocumented: [...registered].filter((route) => !documented.has(route)).sort(),
      notRegistered: [...documented].filter((route) => !registered.has(route)).sort(),
    }).toEqual({ undocumented: [], notRegistered: [] });
  });

  test('GET /api/openapi.json serves it with the API token, and 401 without', async () => {
    const { app, backend } = await backendApp(cleanup);
    const server = await listen(app, '127.0.0.1', 0);
    cleanup.defer(() => server.close());
    const url = `http://127.0.0.1:${server.port}/api/openapi.json`;
    const { token } = await backend.tokens.create('openapi test');

    const served = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    expect(served.status).toBe(200);
    const body = (await served.json()) as { openapi: string };
    expect(body.openapi).toBe('3.1.0');
    expect(body).toEqual(JSON.parse(JSON.stringify(openApiDocument())));

    const refused = await fetch(url);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthenticated');
  });
});
