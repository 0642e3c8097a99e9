import { z } from 'zod';

// The REST reference as data: each domain folder lists its routes (`*-route-docs.ts`) with the SAME
// zod schemas its handlers pass to parseInput, and this module turns the list into an OpenAPI 3.1
// document with zod's own JSON Schema output (draft 2020-12, the dialect of OpenAPI 3.1), so the
// request side of the reference cannot drift from the handlers (docs/rest-api.md).

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteDoc {
  method: HttpMethod;
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
  /** The success response: its status, what it holds, and its schema when one describes it. */
  ok: { status: number; description: string; schema?: z.ZodType; contentType?: string };
  /**
   * Refusals besides the ones every route of its kind has (400 with an input schema, 401 under /api,
   * 404 with a path parameter), each `status: why`.
   */
  errors?: Record<number, string | { description: string; schema: z.ZodType }>;
  /** Open routes (no token): /healthz, /readyz. */
  open?: true;
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
        code: z.string().describe('a stable code, e.g. invalid_argument, not_found, failed_precondition'),
        message: z.string().describe('what went wrong, for people'),
        details: z.record(z.string(), z.unknown()).optional().describe('e.g. `issues` for invalid input'),
        request_id: z.string().describe('also in the X-Request-Id response header and the logs'),
      })
      .strict(),
  })
  .strict();

/** Refusals every route of a kind has: shared responses, referenced by each route. */
const COMMON_ERRORS = {
  InvalidInput: [
    400,
    'invalid input: the message names the first issue, `details.issues` lists them all; nothing changed',
  ],
  Unauthenticated: [401, 'missing, invalid or revoked API token'],
  NotFound: [404, 'no such resource'],
} as const;

/** `/api/tasks/:id` -> `/api/tasks/{id}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, '{$1}');

type JsonSchema = Record<string, unknown>;

/** Input side: what a client sends (a coerced number is documented as the number it must spell). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query' | 'header'): JsonSchema[] {
  if (schema === undefined) return [];
  const { properties = {}, required = [] } = jsonSchema(schema) as { properties?: JsonSchema; required?: string[] };
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

function responses(route: RouteDoc): JsonSchema {
  const { ok } = route;
  const contentType = ok.contentType ?? 'application/json';
  const schema = ok.schema === undefined ? {} : jsonSchema(ok.schema, 'output');
  const out: JsonSchema = {
    [String(ok.status)]:
      ok.status === 204
        ? { description: ok.description }
        : { description: ok.description, content: { [contentType]: { schema } } },
  };
  const common: (keyof typeof COMMON_ERRORS)[] = [];
  const inputs = [route.params, route.query, route.headers, route.body];
  if (inputs.some((input) => input !== undefined)) common.push('InvalidInput');
  if (route.open !== true) common.push('Unauthenticated');
  if (route.path.includes(':')) common.push('NotFound');
  for (const name of common) out[String(COMMON_ERRORS[name][0])] = { $ref: `#/components/responses/${name}` };
  // A route's own words for a status replace the shared response.
  for (const [status, why] of Object.entries(route.errors ?? {})) {
    out[status] =
      typeof why === 'string'
        ? errorResponse(why)
        : {
            description: why.description,
            content: { 'application/json': { schema: jsonSchema(why.schema, 'output') } },
          };
  }
  return out;
}

function operation(route: RouteDoc, tag: string): JsonSchema {
  const params = [
    ...parameters(route.params, 'path'),
    ...parameters(route.query, 'query'),
    ...parameters(route.headers, 'header'),
  ];
  return {
    operationId: `${route.method}${openApiPath(route.path).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c?: string) => (c ?? '').toUpperCase())}`,
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
            content: { 'application/json': { schema: jsonSchema(route.body) } },
          },
        }),
    responses: responses(route),
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
  for (const group of groups) {
    for (const route of group.routes) {
      const path = (paths[openApiPath(route.path)] ??= {});
      if (path[route.method] !== undefined) throw new Error(`${route.method} ${route.path} is documented twice`);
      path[route.method] = operation(route, group.tag);
    }
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/', description: 'the backend serving this document (default http://127.0.0.1:7420)' }],
    tags: groups.map((group) => ({ name: group.tag, description: group.description })),
    // Either scheme: the operator's API token, or the console's session cookie.
    security: [{ bearerAuth: [] }, { cookieAuth: [] }],
    paths,
    components: {
      schemas: { Error: jsonSchema(ErrorEnvelopeSchema, 'output') },
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
