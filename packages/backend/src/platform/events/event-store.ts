import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { AppError } from '@kandev/protocol';
import { underEventOrder } from '../store/event-order-lock';
import { parseJsonColumn, toIsoString } from '../store/row-values';
import { sendWrite } from '../store/driver/store-transaction';
import { EventDataSchema, type EventFilter, EventTypeSchema, type NewEvent, type StoredEvent } from './event-types';
import type { Sql } from '../store/sql';
import { type Actor, currentActor } from '../access/actor';

export type { NewEvent } from './event-types';

interface EventRow {
  id: number | string;
  type: string;
  task_id: string | null;
  session_id: string | null;
  payload: unknown;
  created_at: unknown;
  actor_kind?: string | null;
  actor_id?: string | null;
  actor_name?: string | null;
}

/** The actor columns read back (a row of an unknown kind reads as no actor). */
export function actorOfRow(row: Pick<EventRow, 'actor_kind' | 'actor_id' | 'actor_name'>): Actor | null {
  if (row.actor_kind === 'token' && row.actor_id != null) {
    return { kind: 'token', id: row.actor_id, name: row.actor_name ?? '' };
  }
  if (row.actor_kind === 'session' && row.actor_id != null) return { kind: 'session', id: row.actor_id };
  return null;
}

function actorColumns(actor: Actor | null) {
  return {
    actor_kind: actor?.kind ?? null,
    actor_id: actor?.id ?? null,
    actor_name: actor?.kind === 'token' ? actor.name : null,
  };
}

export function fromRow(row: EventRow): StoredEvent {
  const type = EventTypeSchema.safeParse(row.type);
  if (!type.success) throw new AppError('internal', `event ${String(row.id)} has an unknown type`);
  return {
    id: Number(row.id),
    type: type.data,
    taskId: row.task_id,
    sessionId: row.session_id,
    data: parseJsonColumn(EventDataSchema, row.payload, 'events.payload'),
    at: toIsoString(row.created_at),
    actor: actorOfRow(row),
  };
}

/** Rows per multi-row insert: far below SQLite's 32,766 bound variables (9 per event). */
const INSERT_CHUNK = 500;

function toRow(event: NewEvent, acting: Actor | null) {
  return {
    type: event.type,
    task_id: event.taskId,
    session_id: event.sessionId,
    payload: JSON.stringify(event.data),
    created_at: event.at,
    workspace_id: event.workspaceId ?? null,
    ...actorColumns(event.actor === undefined ? acting : event.actor),
  };
}

/** A page of the log and the log's extent, read in one statement (`readAfter`). */
export interface EventRead {
  events: StoredEvent[];
  oldestId: number | null;
  newestId: number | null;
}

/** What bounds the log: events older than `maxAgeMs`, and all but the newest `maxRows`, are dropped. */
export interface EventRetention {
  maxAgeMs: number;
  maxRows: number;
}

/**
 * The durable event log; an event with an actor is also copied to the audit trail (`audit_entries`).
 * `append` runs on the connection the store was built with: inside a unit of
 * work's transaction the event commits (or rolls back) with the change it describes, and its insert is
 * sent with the next statement (`sendWrite`, platform/store/driver/store-transaction.ts). `appended` is told each event after its insert;
 * the unit of work hands them to its after-commit hook (the signals).
 */
export class EventStore {
  constructor(
    private readonly db: Sql,
    private readonly appended: (event: NewEvent) => void = () => undefined,
  ) {}

  async append(event: NewEvent): Promise<void> {
    await this.appendMany([event]);
  }

  /** Several events in order, in multi-row inserts (a fan-out's acknowledgements: one per session). */
  async appendMany(events: readonly NewEvent[]): Promise<void> {
    if (events.length === 0) return;
    const acting = currentActor() ?? null;
    const rows = events.map((event) => toRow(event, acting));
    // The audit trail keeps its own copy of what a token or a session did (audit-log.ts: its retention).
    const audited = rows.filter((row) => row.actor_kind !== null);
    await underEventOrder(this.db, async (db) => {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await sendWrite(db, db('events').insert(rows.slice(i, i + INSERT_CHUNK)));
      }
      for (let i = 0; i < audited.length; i += INSERT_CHUNK) {
        await sendWrite(db, db('audit_entries').insert(audited.slice(i, i + INSERT_CHUNK)));
      }
    });
    for (const event of events) this.appended(event);
  }

  /**
   * Up to `limit` events with an id above `afterId` (and at most `upTo`, when given) that match the
   * filter, oldest first. A workspace matches through the event's task, `task_id IN (the workspace's
   * tasks)`, or its own `workspace_id` (an event of no task): served by the tasks' workspace index and
   * the events' (task_id, id) and (workspace_id, id) indexes.
   */
  async after(afterId: number, filter: EventFilter, limit: number, upTo?: number): Promise<StoredEvent[]> {
    const query = this.filtered(afterId, filter, upTo);
    const rows = await query.orderBy('id').limit(limit);
    return rows.map(fromRow);
  }

  /**
   * As `after`, in one statement with the log's extent at that same moment: `oldestId - 1 > afterId`
   * means pruning had dropped events past `afterId` when these were read (prune drops a prefix only), so
   * a stream sends `reset`; otherwise the page is complete, and when it is short every matching event up
   * to `newestId` was in it.
   */
  async readAfter(afterId: number, filter: EventFilter, limit: number, upTo?: number): Promise<EventRead> {
    const page = this.filtered(afterId, filter, upTo).orderBy('id').limit(limit);
    const extent = this.extentQuery();
    const rows = (await this.db
      .queryBuilder()
      .select('x.oldest', 'x.newest', 'e.*')
      .from(extent.as('x'))
      .leftJoin(page.as('e'), this.db.raw('1 = 1'))
      .orderBy('e.id')) as (Partial<EventRow> & { oldest: number | string | null; newest: number | string | null })[];
    const first = rows[0];
    const id = (value: number | string | null | undefined) =>
      value === null || value === undefined ? null : Number(value);
    return {
      events: rows.filter((row): row is EventRow & typeof row => row.id !== null && row.id !== undefined).map(fromRow),
      oldestId: id(first?.oldest),
      newestId: id(first?.newest),
    };
  }

  private filtered(afterId: number, filter: EventFilter, upTo?: number) {
    const query = this.db<EventRow>('events').where('id', '>', afterId);
    if (upTo !== undefined) void query.where('id', '<=', upTo);
    if (filter.taskId !== undefined) void query.where({ task_id: filter.taskId });
    if (filter.sessionId !== undefined) void query.where({ session_id: filter.sessionId });
    if (filter.types !== undefined) void query.whereIn('type', [...filter.types]);
    if (filter.hiddenTypes !== undefined && filter.hiddenTypes.length > 0) {
      void query.whereNotIn('type', [...filter.hiddenTypes]);
    }
    if (filter.workspaceId !== undefined) void this.inWorkspaces(query, [filter.workspaceId]);
    // A limited token's scope: an event of no workspace, or of a task or workspace elsewhere, is never
    // sent to it (a task never changes workspace, so its events stay where they were recorded).
    if (filter.workspaceIds !== undefined) void this.inWorkspaces(query, filter.workspaceIds);
    return query;
  }

  /** Events of these workspaces' tasks, or of these workspaces themselves. */
  private inWorkspaces<Q extends Knex.QueryBuilder>(query: Q, workspaceIds: readonly string[]): Q {
    const tasks = this.db('tasks')
      .select('id')
      .whereIn('workspace_id', [...workspaceIds]);
    return query.where((inside) => {
      void inside.whereIn('task_id', tasks).orWhereIn('workspace_id', [...workspaceIds]);
    }) as Q;
  }

  /** The first task, session or workspace the filter names that does not exist (a stream answers 404). */
  async missingTarget(filter: EventFilter): Promise<string | undefined> {
    const targets: [string, string, string | undefined][] = [
      ['task', 'tasks', filter.taskId],
      ['session', 'sessions', filter.sessionId],
      ['workspace', 'workspaces', filter.workspaceId],
    ];
    for (const [what, table, id] of targets) {
      if (id === undefined) continue;
      const row: unknown = await this.db(table).select('id').where({ id }).first();
      if (row === undefined) return `${what} ${id}`;
    }
    return undefined;
  }

  /** The newest id (0 when the log is empty): where a stream without Last-Event-ID starts. */
  async latestId(): Promise<number> {
    const row = (await this.db('events').max({ id: 'id' }).first()) as { id: number | string | null } | undefined;
    return row?.id === null || row?.id === undefined ? 0 : Number(row.id);
  }

  /** The oldest id still retained, or null when the log is empty. */
  async oldestId(): Promise<number | null> {
    const row = (await this.db('events').min({ id: 'id' }).first()) as { id: number | string | null } | undefined;
    return row?.id === null || row?.id === undefined ? null : Number(row.id);
  }

  /**
   * The log's extent for the metrics, read on each scrape from the primary key's two ends (no count:
   * on SQLite a scan would block the event loop). Pruning drops only the oldest rows, so `newest -
   * oldest + 1` is the row count, plus any id a rolled-back append used (PostgreSQL sequences).
   */
  async extent(): Promise<{ oldestId: number | null; newestId: number | null }> {
    const row = (await this.extentQuery()) as { oldest: number | string | null; newest: number | string | null }[];
    const id = (value: number | string | null | undefined) =>
      value === null || value === undefined ? null : Number(value);
    return { oldestId: id(row[0]?.oldest), newestId: id(row[0]?.newest) };
  }

  /**
   * The primary key's two ends, each its own subquery: SQLite reads one end of the index for a lone
   * min() or max(), but scans the table for both in one aggregate.
   */
  private extentQuery() {
    return this.db
      .queryBuilder()
      .select(this.db('events').min('id').as('oldest'), this.db('events').max('id').as('newest'));
  }

  /**
   * Drops what retention no longer keeps, oldest first, `batch` rows per statement with `pause` between
   * statements (so a long prune never holds the database, or SQLite's event loop, for long); resolves how
   * many events were dropped. Only ever a prefix of the log goes (the oldest ids), and never the newest
   * event: so `oldestId() - 1` tells a stream exactly up to where events are gone, and an event younger
   * than the cutoff behind an older one (clocks are not ordered like ids) waits for a later run.
   */
  async prune(retention: EventRetention, now: Date, options: PruneOptions = {}): Promise<number> {
    const batch = options.batch ?? PRUNE_BATCH;
    const pause = options.pause ?? restAfter;
    const cutoff = new Date(now.getTime() - retention.maxAgeMs).toISOString();
    const newest = await this.latestId();
    const byRows = (await this.db('events')
      .select('id')
      .orderBy('id', 'desc')
      .offset(retention.maxRows - 1)
      .limit(1)
      .first()) as { id: number | string } | undefined;
    // Kept whatever its age: the newest row, and the newest maxRows when there are more.
    const keptByCount = byRows === undefined ? 0 : Number(byRows.id);
    let dropped = 0;
    for (;;) {
      const started = performance.now();
      const rows = (await this.db('events')
        .select('id', 'created_at')
        .where('id', '<', newest)
        .orderBy('id')
        .limit(batch)) as { id: number | string; created_at: unknown }[];
      const firstKept = rows.findIndex((row) => Number(row.id) >= keptByCount && toIsoString(row.created_at) >= cutoff);
      const gone = firstKept === -1 ? rows : rows.slice(0, firstKept);
      const last = gone[gone.length - 1];
      if (last === undefined) return dropped;
      dropped += await this.db('events').where('id', '<=', Number(last.id)).delete();
      if (firstKept !== -1 || rows.length < batch) return dropped;
      await pause(performance.now() - started);
    }
  }
}

/**
 * Rows per pruning statement, whatever the backlog. On SQLite a statement runs on the event loop, and a
 * request that arrives meanwhile waits for all of it: 100 rows take well under a millisecond on a warm
 * page cache (500 took 2–3 ms, and tens of ms on cold pages, which showed in the p99 of live updates).
 */
export const PRUNE_BATCH = 100;

/**
 * Between two pruning statements the pruner rests PRUNE_REST_FACTOR times as long as the last one took
 * (at least PRUNE_MIN_REST_MS): requests get the database (SQLite's one connection, on this thread) at
 * least 80 % of the time while a backlog is pruned, instead of waiting behind statement after statement.
 */
export const PRUNE_REST_FACTOR = 4;
export const PRUNE_MIN_REST_MS = 2;

export interface PruneOptions {
  batch?: number;
  /** Awaited between two statements with how long the last one took (ms); default `restAfter`. */
  pause?: (statementMs: number) => Promise<void>;
}

export function restAfter(statementMs: number): Promise<void> {
  const ms = Math.max(PRUNE_MIN_REST_MS, statementMs * PRUNE_REST_FACTOR);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
