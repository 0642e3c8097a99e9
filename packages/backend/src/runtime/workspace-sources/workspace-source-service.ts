import { AppError, isAppError, type Provider } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import type { RepositoryIdentity } from '../../catalogue/repositories/provider-identity';
import type { Repository } from '../../catalogue/repositories/repository';
import type { RepositoryService } from '../../catalogue/repositories/repository-service';
import type { ProviderRefreshService, RefreshPlan } from '../provider-refresh/provider-refresh-service';
import { attachedSetOf } from '../../catalogue/repositories/provider-set';
import { type RefreshSummary, summarizeRefresh } from '../provider-refresh/provider-refresh';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import type { TaskService } from '../../catalogue/tasks/task-service';
import type { LiveRevision } from '../sessions/agent-session';
import type { Task, TaskAttachment } from '../../catalogue/tasks/task';
import { type AttachedRepository, inAttachOrder } from '../../catalogue/tasks/task-store';
import { type AddWorkspaceSourcesBody, planBatch, type WorkspaceSource } from './workspace-source';

/**
 * What a change's answer waits for: `applied` (agentctl's answers, recorded) or `dispatched` (the
 * pushes sent; the REST default, so the answer never waits for the slowest agentctl).
 */
export type RefreshWait = 'applied' | 'dispatched';

export interface WorkspaceSourceServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  repositories: RepositoryService;
  refresh: ProviderRefreshService;
  /**
   * task.updated (its repositories and providers moved) in the batch's transaction, with the task as
   * written; its pending action is read with the batch's own reads.
   */
  tasks: Pick<TaskService, 'pendingActionWithin' | 'recordEventWithin'>;
  /** After a batch committed: checks out the new sources in the task's workspace, when it has one. */
  workspaces?: { refresh(taskId: string): Promise<unknown> };
  logger: Logger;
}

/** The registered repositories a batch's sources name, by id and by identity key. */
interface KnownRepositories {
  byId: Map<string, Repository>;
  byIdentity: Map<string, Repository>;
}

/** What a batch reads before it writes: the task, what it holds, what its sources name, its live sessions. */
interface BatchRead {
  task: Task;
  attached: readonly AttachedRepository[];
  known: KnownRepositories;
  live: readonly LiveRevision[];
}

/** A source validated before anything is read or written: a repository id, or a derived identity. */
type PreparedSource = { baseBranch: string | null } & (
  | { kind: 'id'; index: number; repositoryId: string }
  | { kind: 'identity'; index: number; identity: RepositoryIdentity }
);

export interface SourceBatch {
  taskId: string;
  batchId: string | null;
  added: { repository: Repository; baseBranch: string | null }[];
  providers: Provider[];
  refresh: RefreshSummary;
}

export interface SourceRemoval {
  taskId: string;
  removed: Repository;
  providers: Provider[];
  refresh: RefreshSummary;
}

async function requireTask(stores: Stores, taskId: string): Promise<Task> {
  const task = await stores.tasks.findById(taskId);
  if (task === undefined) throw new AppError('not_found', `task ${taskId} not found`);
  if (task.archivedAt !== null) throw new AppError('failed_precondition', `task ${taskId} is archived`);
  return task;
}

function invalidSources(issues: { path: string; message: string }[]): AppError {
  const first = issues[0];
  const summary = first === undefined ? '' : `: ${first.path}: ${first.message}`;
  return new AppError('invalid_argument', `invalid workspace sources${summary}`, { issues });
}

/**
 * Workspace sources of a task, changed in batches: a batch is validated as a whole, committed in one
 * transaction with one batch id, followed by ONE recomputation of the provider set and one
 * provider update per live session whose set changed. A failed push never rolls the batch back.
 */
export class WorkspaceSourceService {
  constructor(private readonly deps: WorkspaceSourceServiceDeps) {}

  async add(taskId: string, body: AddWorkspaceSourcesBody, wait: RefreshWait = 'applied'): Promise<SourceBatch> {
    const sources = this.prepare(body.sources);
    const now = this.deps.clock().toISOString();
    const committed = await this.deps.uow.transaction(async (stores) => {
      // Every read first: the plan is made from them and what the batch attaches.
      const [task, attached, known, live, pendingAction] = await Promise.all([
        requireTask(stores, taskId),
        stores.tasks.attachedRepositories(taskId),
        this.lookUp(stores, taskId, sources),
        stores.sessions.listLiveRevisions(taskId),
        this.deps.tasks.pendingActionWithin(stores, taskId, now),
      ]);
      const batch = await this.attach(stores, sources, now, { task, attached, known, live });
      if (batch.plan !== undefined) {
        const { repositoryIds, providers } = batch.plan;
        const details = { task: batch.task, repositoryIds, providers, pendingAction };
        await this.deps.tasks.recordEventWithin(stores, 'task.updated', taskId, now, details);
      }
      return batch;
    });
    const refresh = committed.plan === undefined ? summarizeRefresh([]) : await this.refresh(committed.plan, wait);
    if (committed.batchId !== null) await this.checkOutAdded(taskId);
    const added = committed.toAttach.map((attachment) => ({
      repository: committed.resolved.repositories.get(attachment.repositoryId) as Repository,
      baseBranch: attachment.baseBranch,
    }));
    this.deps.logger.info(
      { taskId, batchId: committed.batchId, added: added.length, refresh: refresh.status },
      'sources added',
    );
    return { taskId, batchId: committed.batchId, added, providers: committed.providers, refresh };
  }

  /** The batch's writes and plan, from what `add` read; no plan when it attaches nothing new. */
  private async attach(stores: Stores, sources: readonly PreparedSource[], now: string, read: BatchRead) {
    const { task, attached, known, live } = read;
    const resolved = await this.resolve(stores, task.workspaceId, sources, known);
    const toAttach = planBatch(attached, resolved.attachments);
    if (toAttach.length === 0) {
      return { batchId: null, toAttach, resolved, task, providers: attachedSetOf(attached).providers, plan: undefined };
    }
    const batchId = newId();
    await stores.tasks.attachRepositories(task.id, toAttach, { batchId, createdAt: now });
    await stores.tasks.update(task.id, { updatedAt: now });
    const attaching = toAttach.map((attachment): AttachedRepository => {
      const repository = resolved.repositories.get(attachment.repositoryId) as Repository;
      const { provider, localPath } = repository;
      return { ...attachment, provider, localPath, attachedAt: now };
    });
    const after = attachedSetOf(inAttachOrder([...attached, ...attaching]));
    const plan = await this.deps.refresh.plan(stores, task.id, now, after, live);
    return { batchId, toAttach, resolved, task: { ...task, updatedAt: now }, providers: plan.providers, plan };
  }

  private refresh(plan: RefreshPlan, wait: RefreshWait): Promise<RefreshSummary> {
    return wait === 'applied' ? this.deps.refresh.push(plan) : this.deps.refresh.dispatch(plan);
  }

  /**
   * The committed batch is kept whatever git says: a checkout that fails here is logged, and the next
   * launch or resume retries it and fails with the error.
   */
  private async checkOutAdded(taskId: string): Promise<void> {
    try {
      await this.deps.workspaces?.refresh(taskId);
    } catch (error) {
      this.deps.logger.warn({ err: error, taskId }, 'checking out added sources failed');
    }
  }

  /**
   * Detaches one repository; the provider set shrinks the same way (404 when it was not attached). Its
   * folder in the task workspace is left as it is, no longer managed (docs/workspaces.md).
   */
  async remove(taskId: string, repositoryId: string, wait: RefreshWait = 'applied'): Promise<SourceRemoval> {
    const now = this.deps.clock().toISOString();
    const committed = await this.deps.uow.transaction(async (stores) => {
      const [task, removed, attached, live, pendingAction] = await Promise.all([
        requireTask(stores, taskId),
        stores.repositories.findById(repositoryId),
        stores.tasks.attachedRepositories(taskId),
        stores.sessions.listLiveRevisions(taskId),
        this.deps.tasks.pendingActionWithin(stores, taskId, now),
      ]);
      if (removed === undefined || !attached.some((attachment) => attachment.repositoryId === repositoryId)) {
        throw new AppError('not_found', `repository ${repositoryId} is not attached to task ${taskId}`);
      }
      await stores.tasks.detachRepository(taskId, repositoryId);
      await stores.tasks.update(taskId, { updatedAt: now });
      const after = attachedSetOf(attached.filter((attachment) => attachment.repositoryId !== repositoryId));
      const plan = await this.deps.refresh.plan(stores, taskId, now, after, live);
      const details = { task: { ...task, updatedAt: now }, ...after, pendingAction };
      await this.deps.tasks.recordEventWithin(stores, 'task.updated', taskId, now, details);
      return { removed, plan };
    });
    const refresh = await this.refresh(committed.plan, wait);
    this.deps.logger.info({ taskId, repositoryId, refresh: refresh.status }, 'source removed');
    return { taskId, removed: committed.removed, providers: committed.plan.providers, refresh };
  }

  /** Pure validation of every source before any read or write; all problems reported at once. */
  private prepare(sources: readonly WorkspaceSource[]): PreparedSource[] {
    const issues: { path: string; message: string }[] = [];
    const prepared = sources.flatMap((source, index): PreparedSource[] => {
      if ('repository_id' in source)
        return [{ kind: 'id', index, repositoryId: source.repository_id, baseBranch: null }];
      try {
        const identity =
          'remote_url' in source
            ? this.deps.repositories.deriveIdentity({ remoteUrl: source.remote_url, provider: source.provider })
            : this.deps.repositories.deriveIdentity({ localPath: source.local_path });
        const baseBranch = 'base_branch' in source ? (source.base_branch ?? null) : null;
        return [{ kind: 'identity', index, identity, baseBranch }];
      } catch (error) {
        if (!isAppError(error) || error.code !== 'invalid_argument') throw error;
        const field = 'remote_url' in source ? 'remote_url' : 'local_path';
        issues.push({ path: `sources.${index}.${field}`, message: error.message });
        return [];
      }
    });
    if (issues.length > 0) throw invalidSources(issues);
    return prepared;
  }

  /** The registered repositories the sources name: by id (any workspace), by identity (the task's). */
  private async lookUp(stores: Stores, taskId: string, sources: readonly PreparedSource[]): Promise<KnownRepositories> {
    const ids = sources.flatMap((s) => (s.kind === 'id' ? [s.repositoryId] : []));
    const keys = sources.flatMap((s) => (s.kind === 'identity' ? [s.identity.identityKey] : []));
    const [byId, byIdentity] = await Promise.all([
      stores.repositories.findByIds(ids),
      stores.repositories.findByIdentitiesOfTask(taskId, keys),
    ]);
    return {
      byId: new Map(byId.map((r) => [r.id, r] as const)),
      byIdentity: new Map(byIdentity.map((r) => [r.identityKey, r] as const)),
    };
  }

  /**
   * Repository ids must name repositories of the task's workspace; URLs and paths not registered yet
   * (`known` was read before, in this transaction) are registered.
   */
  private async resolve(
    stores: Stores,
    workspaceId: string,
    sources: readonly PreparedSource[],
    known: KnownRepositories,
  ) {
    const repositories = new Map(known.byId);
    const foreign = sources.filter(
      (s) => s.kind === 'id' && repositories.get(s.repositoryId)?.workspaceId !== workspaceId,
    );
    if (foreign.length > 0) {
      throw invalidSources(
        foreign.map((s) => ({
          path: `sources.${s.index}.repository_id`,
          message: "not a repository of the task's workspace",
        })),
      );
    }
    // With those this batch registers: a repository named twice is registered once.
    const byIdentity = new Map(known.byIdentity);
    const named = async (source: PreparedSource): Promise<Repository> => {
      if (source.kind === 'id') return repositories.get(source.repositoryId) as Repository;
      const { identity } = source;
      const repository =
        byIdentity.get(identity.identityKey) ??
        (await this.deps.repositories.registerNew(stores, workspaceId, identity));
      byIdentity.set(identity.identityKey, repository);
      return repository;
    };
    const attachments: TaskAttachment[] = [];
    for (const source of sources) {
      const repository = await named(source);
      repositories.set(repository.id, repository);
      attachments.push({ repositoryId: repository.id, baseBranch: source.baseBranch });
    }
    return { attachments, repositories };
  }
}
