import { z } from 'zod';

export interface Workspace {
  id: string;
  name: string;
  createdAt: string;
}

export const CreateWorkspaceBodySchema = z.object({ name: z.string().trim().min(1).max(200) }).strict();
export type CreateWorkspaceBody = z.infer<typeof CreateWorkspaceBodySchema>;

export interface WorkspaceView {
  id: string;
  name: string;
  created_at: string;
}

export function toWorkspaceView(workspace: Workspace): WorkspaceView {
  return { id: workspace.id, name: workspace.name, created_at: workspace.createdAt };
}
