import type { AgentSession, AgentSessionState, LiveRevision } from '../agent-session';
import { type CreationPosition, inCreationOrder } from '../../../platform/store/creation-order';
import type { Sql } from '../../../platform/store/sql';
import type { TimeBound } from '../../../platform/store/time-keyset';
import { chunks } from '../session-events';
import { LIVE_SESSION_STATES, SETTLED_LIVE_STATES } from '../session-lifecycle';
import { liveRevisionsOf, revisionsOf, type SessionRevisions } from './session-fan-out-writes';
import { listSessionHistory, type SessionHistoryEntry } from './session-history';
import { fromRow, SESSION_COLUMNS, type SessionRow } from './session-rows';

export interface SessionListFilter {
  taskId?: string;
  /** Sessions of tasks in these workspaces (a limited token's); absent: every workspace. */
  workspaceIds?: readonly string[];
  /** Any of these states (an empty list matches none). */
  states?: readonly AgentSessionState[];
  /** Descending creation order (`after` then means older than it). */
  newestFirst?: boolean;
  executor?: string;
  /** The position of the previous page's last session. */
  after?: CreationPosition;
  limit: number;
}

/**
 * The sessions table's reads: whole rows, or the few columns a fan-out needs. SessionStore
 * (session-store.ts) adds the writes, each a compare-and-set with its event.
 */
export class SessionReads {
  constructor(protected readonly db: Sql) {}

  /** A read of whole rows, naming every column (so on PostgreSQL it may run as a named statement). */
  protected rows() {
    return this.db<SessionRow>('sessions').select(SESSION_COLUMNS);
  }

  /** Every session counted by state and executor (the metrics gauge; one grouped read). */
  async countByStateAndExecutor(): Promise<Array<{ state: string; executor: string; count: number }>> {
    const rows: Array<{ state: string; executor: string; count: number | string }> = await this.db('sessions')
      .select('state', 'executor')
      .count({ count: '*' })
      .groupBy('state', 'executor');
    return rows.map((row) => ({ state: row.state, executor: row.executor, count: Number(row.count) }));
  }

  async findById(id: string): Promise<AgentSession | undefined> {
    const row = await this.rows().where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** These sessions by id (missing ids are gone), a chunk of ids per read: a sweep over thousands. */
  async findByIds(ids: readonly string[]): Promise<Map<string, AgentSession>> {
    const found = new Map<string, AgentSession>();
    for (const slice of chunks(ids)) {
      for (const row of await this.rows().whereIn('id', slice)) {
        const session = fromRow(row);
        found.set(session.id, session);
      }
    }
    return found;
  }

  /** The task's live sessions (starting, running, waiting for input), oldest first. */
  async listLive(taskId: string): Promise<AgentSession[]> {
    const rows = await this.rows()
      .where({ task_id: taskId })
      .whereIn('state', [...LIVE_SESSION_STATES])
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** The task's live sessions as a provider refresh plans them (listLive's order, a few columns). */
  listLiveRevisions(taskId: string): Promise<LiveRevision[]> {
    return liveRevisionsOf(this.db, taskId);
  }

  /** The id of the task's newest live session (listLive's last), without reading the others. */
  async newestLiveId(taskId: string): Promise<string | undefined> {
    const row = await this.db('sessions')
      .select('id')
      .where({ task_id: taskId })
      .whereIn('state', [...LIVE_SESSION_STATES])
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .first<{ id: string } | undefined>();
    return row?.id;
  }

  /** The history of the task's sessions (state changes, tool-list revisions) after `bound`, oldest first. */
  history(taskId: string, bound: TimeBound | undefined, limit: number): Promise<SessionHistoryEntry[]> {
    return listSessionHistory(this.db, taskId, bound, limit);
  }

  /** Every session of the task, newest first. */
  async listByTask(taskId: string): Promise<AgentSession[]> {
    const rows = await this.rows()
      .where({ task_id: taskId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return rows.map(fromRow);
  }

  /** One page of sessions matching the filter, oldest first (ties by id), strictly after `after`. */
  async list(filter: SessionListFilter): Promise<AgentSession[]> {
    const query = this.rows();
    if (filter.taskId !== undefined) void query.where({ task_id: filter.taskId });
    if (filter.workspaceIds !== undefined) {
      void query.whereIn(
        'task_id',
        this.db('tasks')
          .whereIn('workspace_id', [...filter.workspaceIds])
          .select('id'),
      );
    }
    if (filter.states !== undefined) void query.whereIn('state', [...filter.states]);
    if (filter.executor !== undefined) void query.where({ executor: filter.executor });
    const rows = await inCreationOrder(query, filter.after, filter.limit, filter.newestFirst === true);
    return rows.map(fromRow);
  }

  /** Each task's newest session (creation order, ties by id), for a page of tasks in ONE query. */
  async newestOfTasks(taskIds: readonly string[]): Promise<AgentSession[]> {
    if (taskIds.length === 0) return [];
    // Per task, the first entry of its (task_id, created_at, id) index read backwards: one probe per
    // task on both databases (an anti-join against later sessions scanned every session on PostgreSQL).
    const newest = this.db('sessions as later')
      .select('later.id')
      .where('later.task_id', this.db.ref('sessions.task_id'))
      .orderBy([
        { column: 'later.created_at', order: 'desc' },
        { column: 'later.id', order: 'desc' },
      ])
      .limit(1);
    const rows = await this.rows()
      .whereIn('task_id', [...taskIds])
      .where('id', newest);
    return rows.map(fromRow);
  }

  /** Every session in one of the states, oldest first (boot reconcile). */
  async listByStates(states: readonly AgentSessionState[]): Promise<AgentSession[]> {
    const rows = await this.rows()
      .whereIn('state', [...states])
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** Live sessions on the own local agentctl of a replica other than `running` (one that is gone). */
  async listLiveOnReplicasOtherThan(running: readonly string[]): Promise<AgentSession[]> {
    const rows = await this.rows()
      .whereIn('state', [...LIVE_SESSION_STATES])
      .whereNotNull('agentctl_replica')
      .whereNotIn('agentctl_replica', [...running]);
    return rows.map(fromRow);
  }

  /** Acknowledged, still running sessions whose desired revision agentctl has not acknowledged yet. */
  async listBehind(): Promise<AgentSession[]> {
    const rows = await this.rows()
      .whereIn('state', [...SETTLED_LIVE_STATES])
      .where('applied_revision', '<', this.db.ref('revision'))
      .orderBy('id');
    return rows.map(fromRow);
  }

  /** Where each of these sessions stands (missing ids are gone): the pusher's one read per fan-out. */
  revisionsOf(ids: readonly string[]): Promise<Map<string, SessionRevisions>> {
    return revisionsOf(this.db, ids);
  }
}
