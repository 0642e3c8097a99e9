import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../http/parse';
import type { Sql } from '../store/sql';
import { AuditEntrySchema, AuditQuerySchema, readAudit } from './audit-log';

export const AuditPageSchema = z
  .object({ entries: z.array(AuditEntrySchema), next_cursor: z.string().nullable() })
  .strict()
  .meta({ id: 'AuditPage' });

/** GET /api/audit: who changed what, newest first (audit-log.ts). */
export function createAuditRoutes(db: Sql): Router {
  const router = Router();
  router.get('/api/audit', async (req, res) => {
    const query = parseInput(AuditQuerySchema, req.query, 'query');
    const page = await readAudit(db, query);
    res.json({ entries: page.items, next_cursor: page.nextCursor } satisfies z.infer<typeof AuditPageSchema>);
  });
  return router;
}
