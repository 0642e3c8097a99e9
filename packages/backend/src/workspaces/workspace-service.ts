import { AppError } from '@kandev/protocol';
import { newId } from '../store/row-values';
import type { UnitOfWork } from '../store/unit-of-work';
import type { CreateWorkspaceBody, Workspace } from './workspace';

export class WorkspaceService {
  constructor(private readonly deps: { uow: UnitOfWork; clock: () => Date }) {}

  async create(body: CreateWorkspaceBody): Promise<Workspace> {
    const workspace: Workspace = { id: newId(), name: body.name, createdAt: this.deps.clock().toISOString() };
    await this.deps.uow.read.workspaces.insert(workspace);
    return workspace;
  }

  async get(id: string): Promise<Workspace> {
    const workspace = await this.deps.uow.read.workspaces.findById(id);
    if (workspace === undefined) throw new AppError('not_found', `workspace ${id} not found`);
    return workspace;
  }
}
