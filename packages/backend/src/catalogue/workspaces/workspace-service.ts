import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { DEFAULT_PAGE_LIMIT, decodeCursor, type Page, pageOf } from '../../platform/store/page-cursor';
import { newId } from '../../platform/store/row-values';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { CreateWorkspaceBody, Workspace } from './workspace';

/** A workspace cursor holds the position (created_at, id) of the last workspace read. */
const WorkspaceCursorSchema = z.object({ c: z.string().min(1), i: z.string().min(1) }).strict();

export class WorkspaceService {
  constructor(private readonly deps: { uow: UnitOfWork; clock: () => Date }) {}

  async create(body: CreateWorkspaceBody): Promise<Workspace> {
    const workspace: Workspace = { id: newId(), name: body.name, createdAt: this.deps.clock().toISOString() };
    await this.deps.uow.transaction(async (stores) => {
      await stores.workspaces.insert(workspace);
      await stores.events.append({
        type: 'workspace.created',
        taskId: null,
        sessionId: null,
        workspaceId: workspace.id,
        data: { workspace: { id: workspace.id, name: workspace.name } },
        at: workspace.createdAt,
      });
    });
    return workspace;
  }

  async get(id: string): Promise<Workspace> {
    const workspace = await this.deps.uow.read.workspaces.findById(id);
    if (workspace === undefined) throw new AppError('not_found', `workspace ${id} not found`);
    return workspace;
  }

  /** One page of workspaces, oldest first. */
  /** `workspaceIds`: the caller's workspaces (a limited token); null: every workspace. */
  async list(
    request: { cursor?: string; limit?: number },
    workspaceIds: readonly string[] | null = null,
  ): Promise<Page<Workspace>> {
    const limit = request.limit ?? DEFAULT_PAGE_LIMIT;
    const after = request.cursor === undefined ? undefined : decodeCursor(WorkspaceCursorSchema, request.cursor);
    const rows = await this.deps.uow.read.workspaces.listAfter(
      after === undefined ? undefined : { createdAt: after.c, id: after.i },
      limit + 1,
      workspaceIds ?? undefined,
    );
    return pageOf(rows, limit, (row) => ({ c: row.createdAt, i: row.id }));
  }
}
