import { z } from 'zod';
import { RestErrorCodeSchema } from '../http/error-codes';
import { OPEN_PATHS } from '../http/request-access';
import { type JsonSchema, SchemaComponents } from './json-schema';

// The REST reference as data: each domain folder lists its routes (`*-route-docs.ts`) with the SAME
// zod schemas its handlers pass to parseInput, and this module turns the list into an OpenAPI 3.1
// document with zod's own JSON Schema output (draft 2020-12, the dialect of OpenAPI 3.1), so the
// request side of the reference cannot drift from the handlers (docs/rest-api.md). The response side
// uses the view schemas whose output types the handlers' view functions return; named ones (`.meta({
// id })`) are components. The console's and the CLI's types are generated from this document.

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDoc {
  method: HttpMethod;
  /**
   * A verb first, unique in the document: `listTasks`, `launchSession`, `answerQuestion`. The generated
   * clients and docs/rest-api.md name the route by it.
   */
  operationId: string;
  /** The Express path as registered, e.g. `/api/tasks/:id`. */
  path: string;
  summary: string;
  /** Longer notes: rules, refusals, side effects. */
  description?: string;
  /** Exactly the schemas the handler parses (`parseInput(Schema, req.params | req.query | req.body)`). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Request headers the handler reads, e.g. `Last-Event-ID` (an object of their schemas). */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /**
   * The success response: its status, what it holds and its schema (required whenever it has a body:
   * everything but a 204 or a redirect).
   */
  ok: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  /**
   * Refusals besides the ones every route of its kind has (400 with an input schema, 401 under /api,
   * 404 with a path parameter), each `status: why`.
   */
  errors?: Record<number, string | { description: string; schema: z.ZodType }>;
  /** Open routes (no token): /healthz, /readyz. */
  open?: true;
  /**
   * An open route that checks a token itself (POST /login): like every route behind the token, it is
   * refused with 429 after too many failed authentications from the client's address.
   */
  checksToken?: true;
}

/** A group of routes: one heading in docs/rest-api.md, one tag in the document. */
export interface RouteGroup {
  tag: string;
  description: string;
  routes: readonly RouteDoc[];
}

/** The error envelope createErrorMiddleware writes for every refusal (error-middleware.ts). */
export const ErrorEnvelopeSchema = z
  .object({
    error: z
      .object({
        code: RestErrorCodeSchema.describe('a stable code: branch on it, not on the message'),
        message: z.string().describe('what went wrong, for people'),
        details: z.record(z.string(), z.unknown()).optional().describe('e.g. `issues` for invalid input'),
        request_id: z.string().describe('also in the X-Request-Id response header and the logs'),
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'Error' });

/** Refusals every route of a kind has: shared responses, referenced by each route. */
const COMMON_ERRORS = {
  InvalidInput: [
    400,
    'invalid input: the message names the first issue, `details.issues` lists them all; nothing changed',
  ],
  Unauthenticated: [401, 'missing, invalid or revoked API token'],
  NotFound: [404, 'no such resource'],
  Forbidden: [
    403,
    'refused before any route (`permission_denied`): a Host this backend does not serve, a cross-origin request, or a token whose role or workspaces do not cover the route (the message names the right it lacks)',
  ],
  UnsupportedMediaType: [415, 'a request body that is not `application/json`; nothing read (`unsupported_media_type`)'],
  TooManyRequests: [
    429,
    'too many failed authentications from this client address: refused, unchecked, until the time in `Retry-After` (`too_many_requests`)',
  ],
} as const;

/** `/api/tasks/:id` -> `/api/tasks/{id}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, '{$1}');

/** Verbs an operationId may start with (the generated clients read as calls). */
export const OPERATION_VERBS = [
  'add',
  'answer',
  'archive',
  'cancel',
  'create',
  'delete',
  'evaluate',
  'get',
  'issue',
  'launch',
  'link',
  'list',
  'put',
  'read',
  'redeem',
  'relaunch',
  'remove',
  'resume',
  'revoke',
  'sign',
  'stop',
  'stream',
  'unarchive',
  'update',
  'set',
  'change',
  'store',
  'attach',
  'detach',
  'queue',
  'enqueue',
  'check',
  'watch',
] as const;

/** `listTasks`: a known verb, then capitalised words; letters and digits only. */
export function isVerbOperationId(operationId: string): boolean {
  const verb = /^[a-z]+/.exec(operationId)?.[0];
  return (
    verb !== undefined &&
    (OPERATION_VERBS as readonly string[]).includes(verb) &&
    /^[a-z]+(?:[A-Z][a-z0-9]*)*$/.test(operationId)
  );
}

function parameters(
  components: SchemaComponents,
  schema: z.ZodObject | undefined,
  where: 'path' | 'query' | 'header',
): JsonSchema[] {
  if (schema === undefined) return [];
  const { properties = {}, required = [] } = components.convert(schema, 'input') as {
    properties?: JsonSchema;
    required?: string[];
  };
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema;
    return {
      name,
      in: where,
      required: where === 'path' || required.includes(name),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** A 204 or a redirect has no body; every other success response has one, and so a schema. */
const hasBody = (status: number): boolean => status !== 204 && (status < 300 || status >= 400);

/** What the Host/Origin/media-type guard (platform/http/request-access.ts) may answer for the route. */
function guardRefusals(route: RouteDoc): (keyof typeof COMMON_ERRORS)[] {
  if (route.method === 'get' && OPEN_PATHS.has(route.path)) return [];
  return route.body === undefined ? ['Forbidden'] : ['Forbidden', 'UnsupportedMediaType'];
}

function responses(components: SchemaComponents, route: RouteDoc): JsonSchema {
  const { ok } = route;
  const contentType = ok.contentType ?? 'application/json';
  if (hasBody(ok.status) && ok.schema === undefined) {
    throw new Error(`${route.method} ${route.path}: its ${ok.status} response has a body, so it needs a schema`);
  }
  const out: JsonSchema = {
    [String(ok.status)]:
      ok.schema === undefined
        ? { description: ok.description }
        : {
            description: ok.description,
            content: { [contentType]: { schema: components.convert(ok.schema, 'output') } },
          },
  };
  const common: (keyof typeof COMMON_ERRORS)[] = [];
  const inputs = [route.params, route.query, route.headers, route.body];
  if (inputs.some((input) => input !== undefined)) common.push('InvalidInput');
  if (route.open !== true) common.push('Unauthenticated');
  if (route.open !== true || route.checksToken === true) common.push('TooManyRequests');
  common.push(...guardRefusals(route));
  if (route.path.includes(':')) common.push('NotFound');
  for (const name of common) out[String(COMMON_ERRORS[name][0])] = { $ref: `#/components/responses/${name}` };
  // A route's own words for a status replace the shared response.
  for (const [status, why] of Object.entries(route.errors ?? {})) {
    out[status] =
      typeof why === 'string'
        ? errorResponse(why)
        : {
            description: why.description,
            content: { 'application/json': { schema: components.convert(why.schema, 'output') } },
          };
  }
  return out;
}

function operation(components: SchemaComponents, route: RouteDoc, tag: string): JsonSchema {
  const params = [
    ...parameters(components, route.params, 'path'),
    ...parameters(components, route.query, 'query'),
    ...parameters(components, route.headers, 'header'),
  ];
  return {
    operationId: route.operationId,
    tags: [tag],
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    ...(route.open === true ? { security: [] } : {}),
    ...(params.length === 0 ? {} : { parameters: params }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: {
            // `req.body ?? {}` handlers accept no body at all when every field is optional.
            required: !route.body.safeParse({}).success,
            content: { 'application/json': { schema: components.convert(route.body, 'input') } },
          },
        }),
    responses: responses(components, route),
  };
}

export interface ApiInfo {
  title: string;
  version: string;
  description: string;
}

/** The OpenAPI 3.1 document of the given route groups, in their order. */
export function buildOpenApiDocument(info: ApiInfo, groups: readonly RouteGroup[]) {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const components = new SchemaComponents();
  const errorSchema = components.convert(ErrorEnvelopeSchema, 'output');
  const operationIds = new Set<string>();
  for (const group of groups) {
    for (const route of group.routes) {
      const path = (paths[openApiPath(route.path)] ??= {});
      if (path[route.method] !== undefined) throw new Error(`${route.method} ${route.path} is documented twice`);
      if (!isVerbOperationId(route.operationId)) {
        throw new Error(`${route.method} ${route.path}: operationId ${route.operationId} does not start with a verb`);
      }
      if (operationIds.has(route.operationId)) throw new Error(`operationId ${route.operationId} is used twice`);
      operationIds.add(route.operationId);
      path[route.method] = operation(components, route, group.tag);
    }
  }
  if (errorSchema.$ref !== '#/components/schemas/Error') throw new Error('the error envelope must be named Error');
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'the backend serving this document (default http://127.0.0.1:7420)' }],
    tags: groups.map((group) => ({ name: group.tag, description: group.description })),
    // Either scheme: the operator's API token, or the console's session cookie.
    security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    paths,
    components: {
      schemas: components.sorted(),
      responses: Object.fromEntries(Object.entries(COMMON_ERRORS).map(([name, [, why]]) => [name, errorResponse(why)])),
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API token: the admin token file in the data dir, or one from POST /api/tokens',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: 'kandev_session',
          description: "The web console's session cookie",
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
