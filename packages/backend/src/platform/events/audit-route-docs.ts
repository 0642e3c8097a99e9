import type { RouteDoc } from '../openapi/openapi';
import { AuditQuerySchema } from './audit-log';
import { AuditPageSchema } from './audit-routes';

export const AUDIT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'get',
    path: '/api/audit',
    operationId: 'listAudit',
    summary: 'Who changed what: the events tokens and agents caused, newest first',
    description:
      'Every state-changing REST request records the token that made it (id and name, never the token) on the ' +
      'events it produces; a change an agent makes through its MCP tools records its session. Entries are copies ' +
      'of those events, kept KANDEV_AUDIT_RETENTION_DAYS (365 by default) however soon the event log drops the ' +
      'events. Filter by actor, type or task; page with `next_cursor`.',
    query: AuditQuerySchema,
    ok: { status: 200, description: '`{entries: [AuditEntry], next_cursor}`', schema: AuditPageSchema },
  },
];
