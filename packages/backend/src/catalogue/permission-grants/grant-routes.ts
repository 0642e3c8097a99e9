import { Router } from 'express';
import { z } from 'zod';
import { parseInput } from '../../platform/http/parse';
import { IdParamsSchema, IdSchema } from '../../platform/store/id-schema';
import { toPermissionGrantView } from './grant';
import type { PermissionGrants } from './grant-service';

export const GrantParamsSchema = z.object({ id: IdSchema, grant_id: IdSchema }).strict();

/** A task's permission grants, for operators: list and revoke (they are created by answering "always"). */
export function createPermissionGrantRoutes(grants: PermissionGrants): Router {
  const router = Router();
  router.get('/api/tasks/:id/permission-grants', async (req, res) => {
    const { id } = parseInput(IdParamsSchema, req.params, 'path');
    const listed = await grants.list(id);
    res.json({ task_id: id, permission_grants: listed.map(toPermissionGrantView) });
  });
  router.delete('/api/tasks/:id/permission-grants/:grant_id', async (req, res) => {
    const { id, grant_id: grantId } = parseInput(GrantParamsSchema, req.params, 'path');
    await grants.revoke(id, grantId);
    res.status(204).end();
  });
  return router;
}
