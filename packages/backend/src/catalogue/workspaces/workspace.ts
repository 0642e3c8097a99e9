import { z } from 'zod';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export const CreateWorkspaceBodySchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBodySchema>;

/** GET /api/workspaces/:id (the schema documents it in GET /api/openapi.json). */
export const WorkspaceViewSchema = z
  .object({ id: z.string(), name: z.string(), created_at: z.string() })
  .strict()
  .meta({ id: 'Workspace' });
export type WorkspaceView = z.infer<typeof WorkspaceViewSchema>;

export function toWorkspaceView(workspace: Workspace): WorkspaceView {
  return { id: workspace.id, name: workspace.name, created_at: workspace.createdAt };
}
