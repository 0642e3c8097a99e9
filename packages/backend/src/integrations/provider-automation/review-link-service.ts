import { AppError, type Provider } from '@kandev/protocol';
import { isUniqueViolation } from '../../platform/store/constraint-errors';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import {
  assertLinkableRepository,
  DEFAULT_AUTOMATION,
  type LinkMrBody,
  type LinkPrBody,
  type TaskMr,
  type TaskPr,
} from './review-link';

async function requireTask(stores: Stores, taskId: string, forWrite: boolean): Promise<void> {
  const task = await stores.tasks.findById(taskId);
  if (task === undefined) throw new AppError('not_found', `task ${taskId} not found`);
  if (forWrite && task.archivedAt !== null) throw new AppError('failed_precondition', `task ${taskId} is archived`);
}

/** The task exists and is not archived; the repository is attached to it and of the link's provider. */
async function checkLinkable(stores: Stores, provider: Provider, taskId: string, repositoryId: string): Promise<void> {
  await requireTask(stores, taskId, true);
  const repository = await stores.repositories.findById(repositoryId);
  const attached = (await stores.tasks.attachments(taskId)).some((a) => a.repositoryId === repositoryId);
  assertLinkableRepository(provider, taskId, repositoryId, repository, attached);
}

/** Inserts, turning a concurrent duplicate into the same 409 the pre-check gives. */
async function insertOnce(insert: () => Promise<void>, duplicate: string): Promise<void> {
  try {
    await insert();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('already_exists', duplicate, undefined, { cause: error });
    throw error;
  }
}

/** Links between a task and GitHub pull requests / GitLab merge requests (operator side, REST). */
export class ReviewLinkService {
  constructor(private readonly deps: { uow: UnitOfWork; clock: () => Date }) {}

  async linkPr(taskId: string, body: LinkPrBody): Promise<TaskPr> {
    const now = this.deps.clock().toISOString();
    const pr: TaskPr = {
      id: newId(),
      taskId,
      repositoryId: body.repository_id,
      number: body.number,
      state: 'open',
      headSha: null,
      options: { ...DEFAULT_AUTOMATION },
      createdAt: now,
      updatedAt: now,
    };
    const duplicate = `pull request #${pr.number} of repository ${pr.repositoryId} is already linked to task ${taskId}`;
    await this.deps.uow.transaction(async (stores) => {
      await checkLinkable(stores, 'github', taskId, pr.repositoryId);
      if ((await stores.taskPrs.find(taskId, pr.repositoryId, pr.number)) !== undefined) {
        throw new AppError('already_exists', duplicate);
      }
      await insertOnce(() => stores.taskPrs.insert(pr), duplicate);
      const data = { pr_link_id: pr.id, repository_id: pr.repositoryId, number: pr.number };
      await stores.events.append({ type: 'pr.linked', taskId, sessionId: null, data, at: now });
    });
    return pr;
  }

  async linkMr(taskId: string, body: LinkMrBody): Promise<TaskMr> {
    const now = this.deps.clock().toISOString();
    const mr: TaskMr = {
      id: newId(),
      taskId,
      repositoryId: body.repository_id,
      projectPath: body.project_path,
      iid: body.iid,
      state: 'opened',
      headSha: null,
      options: { ...DEFAULT_AUTOMATION },
      lifecycleCheckpoint: null,
      createdAt: now,
      updatedAt: now,
    };
    const duplicate = `merge request !${mr.iid} of repository ${mr.repositoryId} is already linked to task ${taskId}`;
    await this.deps.uow.transaction(async (stores) => {
      await checkLinkable(stores, 'gitlab', taskId, mr.repositoryId);
      if ((await stores.taskMrs.find(taskId, mr.repositoryId, mr.iid)) !== undefined) {
        throw new AppError('already_exists', duplicate);
      }
      await insertOnce(() => stores.taskMrs.insert(mr), duplicate);
      const data = { mr_link_id: mr.id, repository_id: mr.repositoryId, project_path: mr.projectPath, iid: mr.iid };
      await stores.events.append({ type: 'mr.linked', taskId, sessionId: null, data, at: now });
    });
    return mr;
  }

  async listPrs(taskId: string): Promise<TaskPr[]> {
    return this.deps.uow.transaction(async (stores) => {
      await requireTask(stores, taskId, false);
      return stores.taskPrs.listByTask(taskId);
    });
  }

  async listMrs(taskId: string): Promise<TaskMr[]> {
    return this.deps.uow.transaction(async (stores) => {
      await requireTask(stores, taskId, false);
      return stores.taskMrs.listByTask(taskId);
    });
  }
}
