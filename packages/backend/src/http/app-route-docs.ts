import { z } from 'zod';
import type { RouteDoc } from './openapi';

/** Routes createApp itself serves (app.ts), and the document's own route (openapi-route.ts). */
export const APP_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/healthz',
    summary: 'Liveness: the process answers',
    open: true,
    ok: { status: 200, description: '`{status: "ok"}`', schema: z.object({ status: z.literal('ok') }) },
  },
  {
    method: 'get',
    path: '/readyz',
    summary: 'Readiness: the database takes a write and every executor answers',
    description:
      'Open, any Host. 503 when not ready. The body holds status words only, e.g. `{status: "not_ready", checks: {database: "ok", agentctl: {remote: "unreachable"}}}`.',
    open: true,
    ok: { status: 200, description: '`{status: "ready", checks}`' },
    errors: { 503: 'not ready: `{status: "not_ready", checks}` (this body, not the error envelope)' },
  },
  {
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics (text exposition)',
    ok: { status: 200, description: 'the Prometheus text format', contentType: 'text/plain' },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    ok: { status: 200, description: 'the OpenAPI 3.1 document of every route' },
  },
];
