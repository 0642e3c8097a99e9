import { z } from 'zod';
import { buildOpenApiDocument, isVerbOperationId, openApiPath, type RouteDoc } from './openapi';

const INFO = { title: 't', version: '1', description: 'd' };
const ParamsSchema = z.object({ id: z.string().min(1), mrId: z.string() }).strict();
const QuerySchema = z
  .object({ limit: z.coerce.number().int().min(1).max(5).optional(), state: z.enum(['a', 'b']) })
  .strict();
const BodySchema = z.object({ name: z.string().describe('what it is called') }).strict();
const OptionalBodySchema = z.object({ flag: z.boolean().default(false) }).strict();

let ids = 0;
const route = (doc: Partial<RouteDoc>): RouteDoc => ({
  method: 'get',
  path: '/api/things',
  operationId: `getThing${++ids}`,
  summary: 's',
  ok: { status: 200, description: 'ok', schema: z.object({ ok: z.boolean() }) },
  ...doc,
});
const documentOf = (...routes: RouteDoc[]) =>
  buildOpenApiDocument(INFO, [{ tag: 'Things', description: 'things', routes }]);

describe('buildOpenApiDocument', () => {
  test('Express paths become OpenAPI paths', () => {
    expect(openApiPath('/api/tasks/:id/mrs/:mrId/lifecycle')).toBe('/api/tasks/{id}/mrs/{mrId}/lifecycle');
  });

  test('path and query schemas become parameters, required as the schema says', () => {
    const doc = documentOf(route({ path: '/api/things/:id/:mrId', params: ParamsSchema, query: QuerySchema }));
    const op = doc.paths['/api/things/{id}/{mrId}']?.get;
    expect(op?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } },
      { name: 'mrId', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 5 } },
      { name: 'state', in: 'query', required: true, schema: { type: 'string', enum: ['a', 'b'] } },
    ]);
  });

  test('headers the handler reads are header parameters', () => {
    const doc = documentOf(route({ headers: z.object({ 'Last-Event-ID': z.string().optional() }) }));
    expect(doc.paths['/api/things']?.get?.parameters).toEqual([
      { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
    ]);
  });

  test('a body is required unless the schema accepts {}', () => {
    const doc = documentOf(
      route({ method: 'post', body: BodySchema }),
      route({ method: 'put', body: OptionalBodySchema }),
    );
    const things = doc.paths['/api/things'];
    expect(things?.post?.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { name: { type: 'string', description: 'what it is called' } },
            required: ['name'],
            additionalProperties: false,
          },
        },
      },
    });
    expect((things?.put?.requestBody as { required: boolean }).required).toBe(false);
  });

  test('shared refusals by kind of route; a route may word its own', () => {
    const doc = documentOf(
      route({ path: '/api/things/:id', params: ParamsSchema.pick({ id: true }), errors: { 409: 'taken' } }),
      route({ path: '/healthz', open: true }),
    );
    const refs = (path: string) => doc.paths[path]?.get?.responses as Record<string, { $ref?: string }>;
    expect(Object.keys(refs('/api/things/{id}'))).toEqual(['200', '400', '401', '403', '404', '409', '429']);
    expect(refs('/api/things/{id}')['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    expect(refs('/api/things/{id}')['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
    expect(refs('/api/things/{id}')['401']).toEqual({ $ref: '#/components/responses/Unauthenticated' });
    expect(refs('/api/things/{id}')['409']).toMatchObject({ description: 'taken' });
    expect(Object.keys(refs('/healthz'))).toEqual(['200']);
    expect(doc.paths['/healthz']?.get?.security).toEqual([]);
  });

  test('a route with a body may also meet the media-type guard (415)', () => {
    const doc = documentOf(route({ method: 'post', body: BodySchema }));
    const responses = doc.paths['/api/things']?.post?.responses as Record<string, unknown>;
    expect(Object.keys(responses)).toEqual(['200', '400', '401', '403', '415', '429']);
  });

  test('named schemas become components, referenced where used', () => {
    const Thing = z.object({ id: z.string() }).strict().meta({ id: 'UnitThing' });
    const doc = documentOf(
      route({ ok: { status: 200, description: 'one', schema: Thing } }),
      route({
        path: '/api/things/:id',
        params: ParamsSchema.pick({ id: true }),
        ok: { status: 200, description: 'many', schema: z.object({ things: z.array(Thing) }) },
      }),
    );
    const content = (path: string) =>
      (doc.paths[path]?.get?.responses as Record<string, { content: Record<string, { schema: unknown }> }>)['200']
        ?.content['application/json']?.schema;
    expect(content('/api/things')).toEqual({ $ref: '#/components/schemas/UnitThing' });
    expect(content('/api/things/{id}')).toMatchObject({
      properties: { things: { items: { $ref: '#/components/schemas/UnitThing' } } },
    });
    expect(doc.components.schemas.UnitThing).toMatchObject({ properties: { id: { type: 'string' } } });
    expect(doc.components.schemas.Error).toMatchObject({ properties: { error: { type: 'object' } } });
  });

  test('a response with a body needs a schema; a 204 has none', () => {
    expect(() => documentOf(route({ ok: { status: 200, description: 'ok' } }))).toThrow(
      'get /api/things: its 200 response has a body, so it needs a schema',
    );
    const doc = documentOf(route({ method: 'delete', ok: { status: 204, description: 'gone' } }));
    expect(doc.paths['/api/things']?.delete?.responses).toMatchObject({ 204: { description: 'gone' } });
  });

  test('operationIds start with a verb and are unique', () => {
    expect(isVerbOperationId('listTasks')).toBe(true);
    expect(isVerbOperationId('getApiTasksIdMrsMrIdLifecycle')).toBe(true);
    expect(isVerbOperationId('tasksList')).toBe(false);
    expect(isVerbOperationId('list_tasks')).toBe(false);
    expect(() => documentOf(route({ operationId: 'thingsGet' }))).toThrow('does not start with a verb');
    expect(() =>
      documentOf(route({ operationId: 'listThings' }), route({ method: 'post', operationId: 'listThings' })),
    ).toThrow('operationId listThings is used twice');
  });

  test('a route documented twice is refused', () => {
    expect(() => documentOf(route({}), route({ summary: 'again' }))).toThrow('get /api/things is documented twice');
  });
});
