import { existsSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, normalizeProvider } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { GitContext } from './git-command';
import { type CheckoutSource, createCheckout, folderBelongsTo, gitCommonDir, removeWorktree } from './git-checkout';
import {
  type CloneCredential,
  folderCandidates,
  isStrictlyInside,
  taskBranchName,
  taskWorkspacePath,
  type WorkspaceFolder,
  type WorkspaceLayout,
} from './workspace-layout';

export interface TaskWorkspacesConfig {
  /** Absolute directory holding one workspace per task (KANDEV_WORKSPACES_DIR). */
  dir: string;
  /** false: workspace directories are made but repositories are not checked out (KANDEV_WORKSPACE_CHECKOUT). */
  checkout: boolean;
  /** Archiving a task removes its workspace (KANDEV_WORKSPACE_CLEANUP_ON_ARCHIVE). */
  cleanupOnArchive: boolean;
  /** Each git command's deadline. */
  gitTimeoutMs: number;
  /** The environment git starts from (PATH, HOME, proxies, ssh agent; config.ts picks them). */
  gitEnv: Readonly<Record<string, string>>;
}

export interface TaskWorkspacesDeps {
  uow: UnitOfWork;
  config: TaskWorkspacesConfig;
  logger: Logger;
}

/**
 * Each task's workspace: `<dir>/<task id>/`, one folder per attached repository (a worktree of a local
 * repository, a clone of a remote one, both on the task branch). `ensure` is idempotent and runs one at a
 * time per task; a folder already there is kept; a source removed from the task is no longer managed, its
 * folder stays until the workspace is cleaned (docs/workspaces.md).
 */
export class TaskWorkspaces {
  private readonly running = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: TaskWorkspacesDeps) {}

  get config(): TaskWorkspacesConfig {
    return this.deps.config;
  }

  private get git(): GitContext {
    return { timeoutMs: this.deps.config.gitTimeoutMs, env: this.deps.config.gitEnv };
  }

  /** The task's workspace directory (whether or not it exists yet); an id that is no plain name: 400. */
  pathOf(taskId: string): string {
    try {
      return taskWorkspacePath(this.deps.config.dir, taskId);
    } catch (error) {
      throw new AppError('invalid_argument', error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * Creates the task's workspace and a checkout for every attached repository that has none yet. A
   * failed checkout rejects (failed_precondition, naming the repository) and leaves nothing of itself;
   * checkouts made before it stay (the next ensure keeps them).
   */
  ensure(taskId: string): Promise<WorkspaceLayout> {
    return this.serialized(taskId, () => this.ensureNow(taskId));
  }

  /** After a source batch committed: brings an existing workspace up to date (a task never launched has none). */
  async refresh(taskId: string): Promise<WorkspaceLayout | undefined> {
    if (!existsSync(this.pathOf(taskId))) return undefined;
    return this.ensure(taskId);
  }

  /**
   * Removes the task's workspace: every worktree through its source repository (no stale worktree is
   * left there; the task branch is kept), then the folder. Only a path strictly inside the workspaces
   * dir is ever removed. False when there was nothing to remove.
   */
  cleanup(taskId: string): Promise<boolean> {
    return this.serialized(taskId, async () => {
      const { dir } = this.deps.config;
      const root = this.pathOf(taskId);
      if (!isStrictlyInside(dir, root)) throw new AppError('internal', `refusing to remove ${root}: outside ${dir}`);
      if (!existsSync(root)) return false;
      for (const entry of await readdir(root, { withFileTypes: true })) {
        if (entry.isDirectory()) await removeWorktree(join(root, entry.name), this.git);
      }
      await rm(root, { recursive: true, force: true });
      this.deps.logger.info({ taskId, path: root }, 'task workspace removed');
      return true;
    });
  }

  private async ensureNow(taskId: string): Promise<WorkspaceLayout> {
    const { dir, checkout } = this.deps.config;
    const git = this.git;
    // The task first: an unknown id is a 404 before it is ever used in a path.
    const { workspaceId, sources } = await this.readSources(taskId);
    const root = this.pathOf(taskId);
    const branch = taskBranchName(taskId);
    await mkdir(root, { recursive: true });
    const layout: WorkspaceLayout = { taskId, root, branch, folders: [] };
    if (!checkout) return layout;
    const claimed = new Set<string>();
    for (const source of sources) {
      for (const folder of folderCandidates(source.name)) {
        if (claimed.has(folder)) continue;
        const path = join(root, folder);
        if (!isStrictlyInside(dir, path)) throw new AppError('internal', `workspace folder ${path} is outside ${dir}`);
        if (existsSync(path)) {
          if (!(await folderBelongsTo(path, source, git))) continue;
          claimed.add(folder);
          layout.folders.push(await this.existing(source, folder, path));
          break;
        }
        claimed.add(folder);
        const credential = await this.credentialFor(workspaceId, source);
        let made;
        try {
          made = await createCheckout(source, path, { git, branch, credential });
        } catch (error) {
          throw new AppError('failed_precondition', error instanceof Error ? error.message : String(error), {
            repository_id: source.repositoryId,
          });
        }
        this.deps.logger.info({ taskId, repositoryId: source.repositoryId, path, kind: made.kind }, 'checkout made');
        layout.folders.push({ repositoryId: source.repositoryId, folder, path, ...made });
        break;
      }
    }
    return layout;
  }

  private async existing(source: CheckoutSource, folder: string, path: string): Promise<WorkspaceFolder> {
    if (source.localPath === null) {
      return { repositoryId: source.repositoryId, folder, path, kind: 'clone', gitCommonDir: null };
    }
    const common = await gitCommonDir(path, this.git);
    return { repositoryId: source.repositoryId, folder, path, kind: 'worktree', gitCommonDir: common };
  }

  /** The task's attached repositories in attach order, with their base branches. */
  private async readSources(taskId: string): Promise<{ workspaceId: string; sources: CheckoutSource[] }> {
    return this.deps.uow.transaction(async (stores) => {
      const task = await stores.tasks.findById(taskId);
      if (task === undefined) throw new AppError('not_found', `task ${taskId} not found`);
      if (task.archivedAt !== null) throw new AppError('failed_precondition', `task ${taskId} is archived`);
      const attachments = await stores.tasks.attachments(taskId);
      const repositories = new Map(
        (await stores.repositories.findByIds(attachments.map((a) => a.repositoryId))).map((r) => [r.id, r] as const),
      );
      const sources = attachments.flatMap((a): CheckoutSource[] => {
        const repository = repositories.get(a.repositoryId);
        if (repository === undefined) return [];
        const { name, localPath, remoteUrl, provider } = repository;
        return [{ repositoryId: a.repositoryId, name, localPath, remoteUrl, provider, baseBranch: a.baseBranch }];
      });
      return { workspaceId: task.workspaceId, sources };
    });
  }

  /** The workspace's credential for a remote repository's provider (opened only for the clone). */
  private async credentialFor(workspaceId: string, source: CheckoutSource): Promise<CloneCredential | undefined> {
    const provider = normalizeProvider(source.provider);
    if (source.localPath !== null || provider === null) return undefined;
    const stored = await this.deps.uow.read.workspaceCredentials.findSecret(workspaceId, provider);
    return stored === undefined ? undefined : { provider, token: stored.token, baseUrl: stored.baseUrl };
  }

  /** One operation at a time per task: a launch and a live add never check out the same folder twice. */
  private serialized<T>(taskId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.running.get(taskId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.running.set(taskId, settled);
    void settled.then(() => {
      if (this.running.get(taskId) === settled) this.running.delete(taskId);
    });
    return next;
  }
}
