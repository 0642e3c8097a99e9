// The OpenAPI document against the real app: it validates as OpenAPI 3.1, names exactly the routes
// the backend registers (the routers createBackend builds plus createApp's own, as main.ts wires
// them), and is served at GET /api/openapi.json behind the API token.
import type { Express } from 'express';
import {
  createApp,
  createAuthMiddleware,
  createInProcessBackend,
  isVerbOperationId,
  listen,
  metricsRoute,
  openApiDocument,
  openApiPath,
  REST_ERROR_CODES,
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

type Json = Record<string, unknown>;

/** Every operation of the document: `GET /api/tasks` and its object. */
function operations(): [string, Json][] {
  return Object.entries(openApiDocument().paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]): [string, Json] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
}

/** Every `$ref` string anywhere in a value. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

describe('OpenAPI document', () => {
  const cleanup = useCleanup();

  test('every 2xx answer with a body has a schema (none is `{}`); a 204 has no body', () => {
    const lacking: string[] = [];
    for (const [route, operation] of operations()) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
        if (!status.startsWith('2')) continue;
        const content = response.content as Record<string, { schema?: Json }> | undefined;
        if (status === '204') {
          if (content !== undefined) lacking.push(`${route} ${status} has a body`);
          continue;
        }
        if (content === undefined) lacking.push(`${route} ${status} has no content`);
        for (const [type, media] of Object.entries(content ?? {})) {
          if (media.schema === undefined || Object.keys(media.schema).length === 0) {
            lacking.push(`${route} ${status} ${type}`);
          }
        }
      }
    }
    expect(lacking).toEqual([]);
    expect(operations().length).toBeGreaterThan(50);
  });

  test('operationIds are unique and start with a verb', () => {
    const ids = operations().map(([, operation]) => String(operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !isVerbOperationId(id))).toEqual([]);
    expect(ids).toEqual(
      expect.arrayContaining(['listTasks', 'getTask', 'launchSession', 'answerQuestion', 'cancelTurn']),
    );
  });

  test('every $ref names a component that exists; the shared shapes are named', () => {
    const document = openApiDocument();
    const components = document.components as unknown as Record<string, Record<string, unknown>>;
    const missing = refsIn(document).filter((ref) => {
      const [, , kind, name] = ref.split('/');
      return kind === undefined || name === undefined || components[kind]?.[name] === undefined;
    });
    expect(missing).toEqual([]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Task',
        'TaskPage',
        'Session',
        'SessionSummary',
        'Message',
        'MessagePage',
        'Question',
        'QueuedPrompt',
        'Workspace',
        'Repository',
        'AgentProfile',
        'ApiToken',
        'Error',
      ]),
    );
  });

  test('error.code is an enum of every code a refusal carries', () => {
    const error = openApiDocument().components.schemas.Error as {
      properties: { error: { properties: { code: { enum?: string[] } } } };
    };
    expect(error.properties.error.properties.code.enum).toEqual([...REST_ERROR_CODES]);
    expect(REST_ERROR_CODES).toEqual(expect.arrayContaining(['permission_denied', 'unsupported_media_type']));
  });

  test('403 (the Host/Origin guard) is declared on every route but the open probes', () => {
    const without = operations()
      .filter(([, operation]) => (operation.responses as Json)['403'] === undefined)
      .map(([route]) => route);
    expect(without.sort()).toEqual(['GET /healthz', 'GET /readyz']);
  });

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
