import { AppError } from '@kandev/protocol';
import { DEFAULT_PAGE_LIMIT, type Page, pageOf } from '../../platform/store/page-cursor';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import {
  assertProfileFitsAutopilot,
  assertWritable,
  type NewTask,
  type PendingAction,
  type Task,
  type TaskAttention,
  type TaskDetails,
  toTaskView,
  type UpdateTaskBody,
} from './task';
import type { TaskPatch } from './task-store';
import { type ListTasksQuery, taskCursorOf, taskCursorPosition } from './task-list';
import { assertValidParent, type ParentCandidate } from './task-hierarchy';
import { attachedSetOf } from '../repositories/provider-set';
import { decideTaskStateChange, refusedStateChange } from './task-state-change';

/**
 * A parent in another workspace answers as one that does not exist: a token limited to its workspaces
 * learns nothing of another's tasks by naming their ids.
 */
async function parentCandidate(stores: Stores, parentId: string, workspaceId: string): Promise<ParentCandidate> {
  const parent = await stores.tasks.findById(parentId);
  if (parent?.workspaceId !== workspaceId) throw new AppError('not_found', `parent task ${parentId} not found`);
  return { id: parent.id, workspaceId: parent.workspaceId, lineage: await stores.tasks.lineage(parent.id) };
}

/**
 * Every id must name a repository of the task's workspace, else 404: one of another workspace answers
 * exactly as an unknown id, so a token limited to its workspaces learns nothing of another's.
 */
async function checkRepositories(stores: Stores, workspaceId: string, ids: readonly string[]): Promise<void> {
  const found = await stores.repositories.findByIds(ids);
  const ownIds = new Set(found.filter((repository) => repository.workspaceId === workspaceId).map((r) => r.id));
  const missing = ids.filter((id) => !ownIds.has(id));
  if (missing.length > 0) {
    throw new AppError('not_found', `repository not found: ${missing.join(', ')}`, { repository_ids: missing });
  }
}

/**
 * What each task waits for from someone else, read in the caller's transaction (a stale question found
 * is written down). runtime/parent-questions/pending-action.ts's pendingActionsOf, injected: questions/ sits above tasks/.
 */
export type PendingActionsOf = (
  stores: Stores,
  taskIds: readonly string[],
  now: string,
) => Promise<Map<string, PendingAction | null>>;

/**
 * What a page of tasks badges (newest session, pending questions), read in the caller's transaction.
 * runtime/parent-questions/task-attention.ts's attentionOf, injected: sessions and questions sit above tasks/.
 */
export type TaskAttentionOf = (
  stores: Stores,
  taskIds: readonly string[],
  now: string,
) => Promise<Map<string, TaskAttention>>;

/** A listed task: its details and what its card badges. */
export type ListedTask = TaskDetails & { attention: TaskAttention };

export const NO_ATTENTION: TaskAttention = { latest_session: null, failed: false, pending_questions: 0 };

export type TaskEventType = 'task.created' | 'task.updated' | 'task.archived';

export interface TaskServiceDeps {
  uow: UnitOfWork;
  clock: () => Date;
  pendingActions: PendingActionsOf;
  attention: TaskAttentionOf;
}

export class TaskService {
  constructor(private readonly deps: TaskServiceDeps) {}

  /** autopilot defaults to false and is never inherited from the parent. All or nothing. */
  async create(body: NewTask): Promise<TaskDetails> {
    const task = await this.deps.uow.transaction((stores) => this.createWithin(stores, body));
    return this.get(task.id);
  }

  /**
   * The create rules inside the caller's transaction (so a caller can commit more with the task): the
   * workspace exists, the parent is valid, the repositories belong to the workspace, and an autopilot
   * task's agent profile can receive MCP tools.
   */
  async createWithin(stores: Stores, body: NewTask): Promise<Task> {
    const now = this.deps.clock().toISOString();
    const task: Task = {
      id: newId(),
      workspaceId: body.workspace_id,
      parentId: body.parent_id ?? null,
      title: body.title,
      description: body.description ?? null,
      state: 'todo',
      autopilot: body.autopilot ?? false,
      agentProfileId: body.agent_profile_id ?? null,
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    const repositoryIds = [...new Set(body.repository_ids ?? [])];
    if ((await stores.workspaces.findById(task.workspaceId)) === undefined) {
      throw new AppError('not_found', `workspace ${task.workspaceId} not found`);
    }
    if (task.parentId !== null) {
      assertValidParent(
        { id: undefined, workspaceId: task.workspaceId },
        await parentCandidate(stores, task.parentId, task.workspaceId),
      );
    }
    if (task.agentProfileId !== null) {
      const profile = await stores.agentProfiles.findById(task.agentProfileId);
      if (profile === undefined) throw new AppError('not_found', `agent profile ${task.agentProfileId} not found`);
      assertProfileFitsAutopilot(task.autopilot, profile);
    }
    await checkRepositories(stores, task.workspaceId, repositoryIds);
    await stores.tasks.insert(task);
    const attachments = repositoryIds.map((repositoryId) => ({ repositoryId, baseBranch: null }));
    await stores.tasks.attachRepositories(task.id, attachments, { batchId: newId(), createdAt: now });
    await this.recordEventWithin(stores, 'task.created', task.id, now);
    return task;
  }

  /**
   * Appends the task's event with its REST view (as GET /api/tasks/:id shows it) in the caller's
   * transaction. A caller that just wrote the task and knows its repositories passes the details
   * (`known`, its pending action read with `pendingActionWithin` alongside the caller's own reads);
   * else they are read here.
   */
  async recordEventWithin(
    stores: Stores,
    type: TaskEventType,
    id: string,
    at: string,
    known?: TaskDetails,
    change?: Record<string, { from: unknown; to: unknown }>,
  ): Promise<void> {
    const details = known ?? (await this.readDetails(stores, id));
    const data = change === undefined ? { task: toTaskView(details) } : { task: toTaskView(details), change };
    await stores.events.append({ type, taskId: id, sessionId: null, data, at });
  }

  /** What the task waits for, read in the caller's transaction (a stale question found is written down). */
  async pendingActionWithin(stores: Stores, id: string, at: string): Promise<PendingAction | null> {
    const actions = await this.deps.pendingActions(stores, [id], at);
    return actions.get(id) ?? null;
  }

  async get(id: string): Promise<TaskDetails> {
    return this.deps.uow.transaction((stores) => this.readDetails(stores, id));
  }

  /** The task with its attached repositories and providers, read with the caller's stores. */
  async getWithin(stores: Stores, id: string): Promise<TaskDetails> {
    return this.readDetails(stores, id);
  }

  /**
   * Title, parent and state. Reparenting rejects self and cycles (a parent in another workspace is not found, 404); a state change must
   * be a move task-state-change.ts allows (409 naming from and to) on a task that is not archived. All
   * or nothing; one task.updated event, with `change.state: {from, to}` when the state moved.
   */
  async update(id: string, body: UpdateTaskBody): Promise<TaskDetails> {
    return this.deps.uow.transaction(async (stores) => {
      const task = await stores.tasks.findById(id);
      if (task === undefined) throw new AppError('not_found', `task ${id} not found`);
      if (body.parent_id !== undefined && body.parent_id !== null) {
        assertValidParent(task, await parentCandidate(stores, body.parent_id, task.workspaceId));
      }
      const decision = body.state === undefined ? undefined : decideTaskStateChange(task.state, body.state);
      if (decision?.kind === 'refused') throw refusedStateChange(id, decision);
      const state = decision?.kind === 'move' ? decision.to : undefined;
      if (state !== undefined) assertWritable(task);
      if (body.title !== undefined || body.parent_id !== undefined || state !== undefined) {
        const patch = { title: body.title, parentId: body.parent_id, state };
        await this.writeUpdateWithin(stores, task, patch, this.deps.clock().toISOString());
      }
      return this.readDetails(stores, id);
    });
  }

  /**
   * Writes a task's fields and records its one task.updated event, with `change.state: {from, to}`
   * when the state moved: the operator's PATCH and an agent's update_task_kandev record the same
   * event. The caller has judged the change (transitions, writability) in the same transaction.
   */
  async writeUpdateWithin(stores: Stores, task: Task, patch: Omit<TaskPatch, 'updatedAt'>, now: string): Promise<void> {
    await stores.tasks.update(task.id, { ...patch, updatedAt: now });
    const moved = patch.state !== undefined && patch.state !== task.state;
    const change = moved ? { state: { from: task.state, to: patch.state } } : undefined;
    await this.recordEventWithin(stores, 'task.updated', task.id, now, undefined, change);
  }

  /**
   * POST /api/tasks/:id/unarchive: the task is writable again and listed without `include_archived`
   * (a task.updated event). Its sessions stay as archiving left them; a new launch makes a fresh
   * workspace. Unarchiving a task that is not archived changes nothing.
   */
  async unarchive(id: string): Promise<TaskDetails> {
    return this.deps.uow.transaction(async (stores) => {
      if ((await stores.tasks.findById(id)) === undefined) throw new AppError('not_found', `task ${id} not found`);
      const now = this.deps.clock().toISOString();
      if (await stores.tasks.unarchive(id, now)) {
        await this.recordEventWithin(stores, 'task.updated', id, now, undefined, {
          archived: { from: true, to: false },
        });
      }
      return this.readDetails(stores, id);
    });
  }

  /**
   * One page of a workspace's tasks in the query's order (default newest first), filtered, each with
   * what it waits for and what its card badges; a fixed number of queries per page.
   */
  async list(query: ListTasksQuery): Promise<Page<ListedTask>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const sort = query.sort ?? 'created_desc';
    const after = query.cursor === undefined ? undefined : taskCursorPosition(sort, query.cursor);
    return this.deps.uow.transaction(async (stores) => {
      if ((await stores.workspaces.findById(query.workspace_id)) === undefined) {
        throw new AppError('not_found', `workspace ${query.workspace_id} not found`);
      }
      const now = this.deps.clock().toISOString();
      const rows = await stores.tasks.list({
        workspaceId: query.workspace_id,
        parentId: query.parent_id,
        states: query.state,
        includeArchived: query.include_archived ?? false,
        autopilot: query.autopilot,
        provider: query.provider,
        titleContains: query.q,
        pendingQuestion: query.pending_question,
        failed: query.failed,
        now,
        sort,
        after,
        limit: limit + 1,
      });
      const page = pageOf(rows, limit, (task) => taskCursorOf(sort, task));
      const ids = page.items.map((task) => task.id);
      const attention = await this.deps.attention(stores, ids, now);
      const attached = await stores.tasks.attachedRepositoriesOf(ids);
      const items = page.items.map((task): ListedTask => {
        const seen = attention.get(task.id) ?? NO_ATTENTION;
        // The same rule as pendingActionsOf: a task with a question pending waits for clarification.
        const pendingAction = seen.pending_questions > 0 ? 'clarification' : null;
        return { task, ...attachedSetOf(attached.get(task.id) ?? []), pendingAction, attention: seen };
      });
      return { items, nextCursor: page.nextCursor };
    });
  }

  private async readDetails(stores: Stores, id: string): Promise<TaskDetails> {
    const task = await stores.tasks.findById(id);
    if (task === undefined) throw new AppError('not_found', `task ${id} not found`);
    const actions = await this.deps.pendingActions(stores, [id], this.deps.clock().toISOString());
    return this.attachedOf(stores, task, actions.get(id) ?? null);
  }

  private async attachedOf(stores: Stores, task: Task, pendingAction: TaskDetails['pendingAction']) {
    const attached = await stores.tasks.attachedRepositories(task.id);
    return { task, ...attachedSetOf(attached), pendingAction } satisfies TaskDetails;
  }
}
