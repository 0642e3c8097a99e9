import { AppError, type Provider } from '@kandev/protocol';
import { dialectOf } from '../../../platform/store/database';
import { type Acknowledged, chunks, type ToolListEntry } from '../session-events';
import { sendWrite } from '../../../platform/store/driver/store-transaction';
import type { Sql } from '../../../platform/store/sql';
import { parseJsonColumn } from '../../../platform/store/row-values';
import { AgentSessionStateSchema, type LiveRevision } from '../agent-session';
import { LIVE_SESSION_STATES } from '../session-lifecycle';
import { ProvidersColumnSchema } from './session-rows';

// Reads and writes over many sessions at once (a source change fanning out to every live session of a
// task): a statement per slice of sessions, not per session, so a fan-out's cost is not round trips.

/** The columns an acknowledgement sets (the refresh succeeded: its error and attempts cleared). */
export const acknowledgedColumns = (ack: Acknowledged, now: string) => ({
  applied_revision: ack.revision,
  applied_providers: JSON.stringify(ack.providers),
  refresh_error: null,
  refresh_attempts: 0,
  refreshed_at: now,
});

/** A session's task and revisions, as the pusher reads them before acknowledging. */
export interface SessionRevisions {
  taskId: string;
  revision: number;
  appliedRevision: number;
}

interface RevisionRow {
  id: string;
  task_id: string;
  revision: number | string;
  applied_revision: number | string;
}

export async function revisionsOf(db: Sql, ids: readonly string[]): Promise<Map<string, SessionRevisions>> {
  const found = new Map<string, SessionRevisions>();
  for (const slice of chunks(ids)) {
    const rows = await db<RevisionRow>('sessions')
      .select('id', 'task_id', 'revision', 'applied_revision')
      .whereIn('id', slice);
    for (const row of rows) {
      const revisions = { revision: Number(row.revision), appliedRevision: Number(row.applied_revision) };
      found.set(row.id, { taskId: row.task_id, ...revisions });
    }
  }
  return found;
}

/** One update per distinct acknowledgement (a fan-out has one), never moving applied_revision back. */
export async function recordAppliedMany(db: Sql, entries: readonly ToolListEntry[], now: string): Promise<void> {
  const groups = new Map<string, ToolListEntry[]>();
  for (const entry of entries) {
    const key = JSON.stringify([entry.acknowledged.revision, entry.acknowledged.providers]);
    const group = groups.get(key) ?? [];
    group.push(entry);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const acknowledged = group[0]?.acknowledged;
    if (acknowledged === undefined) continue;
    for (const slice of chunks(group.map((entry) => entry.id))) {
      const update = db('sessions')
        .whereIn('id', slice)
        .where('applied_revision', '<=', acknowledged.revision)
        .update({ ...acknowledgedColumns(acknowledged, now), updated_at: now });
      await sendWrite(db, update);
    }
  }
}

/** Many sessions' new desired revision, each its own (usually one for all). */
export interface DesiredRevision {
  id: string;
  revision: number;
}

/**
 * The sessions' desired revision and provider set, written into each stored config by the database
 * (json_set on SQLite, jsonb_set on PostgreSQL): one statement per revision and slice of sessions, no
 * config read, rebuilt or sent.
 */
export async function updateDesiredMany(
  db: Sql,
  sessions: readonly DesiredRevision[],
  providers: readonly Provider[],
  now: string,
): Promise<void> {
  const set = JSON.stringify(providers);
  const statement =
    dialectOf(db) === 'postgres'
      ? `UPDATE sessions SET revision = ?,
                launch_config = jsonb_set(jsonb_set(launch_config::jsonb, '{revision}', to_jsonb(?::integer)),
                                          '{providers}', ?::jsonb)::json,
                updated_at = ?`
      : `UPDATE sessions SET revision = ?, launch_config = json_set(launch_config, '$.revision', ?, '$.providers', json(?)),
                updated_at = ?`;
  const byRevision = new Map<number, string[]>();
  for (const { id, revision } of sessions) {
    const ids = byRevision.get(revision) ?? [];
    ids.push(id);
    byRevision.set(revision, ids);
  }
  for (const [revision, ids] of byRevision) {
    for (const slice of chunks(ids)) {
      const update = db.raw(`${statement} WHERE id IN (${slice.map(() => '?').join(', ')})`, [
        revision,
        revision,
        set,
        now,
        ...slice,
      ]);
      await sendWrite(db, update);
    }
  }
}

interface LiveRevisionRow {
  id: string;
  state: string;
  executor: string;
  agentctl_address: string | null;
  agentctl_replica: string | null;
  revision: number | string;
  providers: unknown;
}

/**
 * A task's live sessions as a provider refresh plans them, oldest first: only the columns it needs, and
 * only the provider set of each stored config (a fan-out reads thousands).
 */
export async function liveRevisionsOf(db: Sql, taskId: string): Promise<LiveRevision[]> {
  const providers =
    dialectOf(db) === 'postgres' ? "launch_config -> 'providers'" : "json_extract(launch_config, '$.providers')";
  const rows = (await db('sessions')
    .select('id', 'state', 'executor', 'agentctl_address', 'agentctl_replica', 'revision')
    .select(db.raw(`${providers} AS providers`))
    .where({ task_id: taskId })
    .whereIn('state', [...LIVE_SESSION_STATES])
    .orderBy([{ column: 'created_at' }, { column: 'id' }])) as LiveRevisionRow[];
  return rows.map((row) => {
    const state = AgentSessionStateSchema.safeParse(row.state);
    if (!state.success) throw new AppError('internal', `session ${row.id} has an unknown state`);
    return {
      id: row.id,
      state: state.data,
      executor: row.executor,
      agentctlAddress: row.agentctl_address,
      agentctlReplica: row.agentctl_replica ?? null,
      revision: Number(row.revision),
      providers: parseJsonColumn(ProvidersColumnSchema, row.providers, 'sessions.launch_config.providers'),
    };
  });
}
