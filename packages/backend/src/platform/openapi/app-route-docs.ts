import { z } from 'zod';
import type { RouteDoc } from './openapi';

/** /readyz's body (composition/readiness.ts): status words only, never an error message. */
const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z
    .object({
      database: z.enum(['ok', 'failed']),
      agentctl: z.record(z.string(), z.enum(['reachable', 'unreachable'])).describe('by executor name'),
    })
    .optional()
    .describe('absent when the backend runs without readiness checks'),
});

/** Routes createApp itself serves (app.ts), and the document's own route (openapi-route.ts). */
export const APP_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'getHealth',
    summary: 'Liveness: the process answers',
    open: true,
    ok: { status: 200, description: '`{status: "ok"}`', schema: z.object({ status: z.literal('ok') }) },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'getReadiness',
    summary: 'Readiness: the database takes a write and every executor answers',
    description: 'Open, like /healthz, for any Host. The body holds status words only (composition/readiness.ts).',
    open: true,
    ok: { status: 200, description: 'ready: `{status: "ready", checks}`', schema: ReadinessSchema },
    errors: { 503: { description: 'not ready: `{status: "not_ready", checks}`', schema: ReadinessSchema } },
  },
  {
    method: 'get',
    path: '/metrics',
    operationId: 'getMetrics',
    summary: 'Prometheus metrics (text exposition)',
    ok: { status: 200, description: 'the Prometheus text format', contentType: 'text/plain', schema: z.string() },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This document (OpenAPI 3.1)',
    ok: {
      status: 200,
      description: 'the OpenAPI 3.1 document of every route',
      schema: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }),
    },
  },
];
