import { type LaunchConfig, redactLaunchConfig } from '@kandev/protocol';
import { dialectOf } from '../../platform/store/database';
import { type Acknowledged, chunks, type ToolListEntry } from './session-events';
import { sendWrite } from '../../platform/store/driver/store-transaction';
import type { Sql } from '../../platform/store/sql';

// Writes over many sessions at once (a source change fanning out to every live session of a task):
// a statement per slice of sessions, not per session, so a fan-out's cost is not round trips.

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

/**
 * Each session's desired config (they differ: each names its session): one statement per slice of
 * sessions, the rows passed as one JSON document (json_to_recordset on PostgreSQL, json_each on SQLite).
 */
export async function updateDesiredMany(db: Sql, configs: readonly LaunchConfig[], now: string): Promise<void> {
  const rows = configs.map((config) => ({
    id: config.sessionId,
    revision: config.revision,
    launch_config: JSON.stringify(redactLaunchConfig(config)),
  }));
  const statement =
    dialectOf(db) === 'postgres'
      ? `UPDATE sessions SET revision = v.revision, launch_config = v.launch_config::json, updated_at = ?
           FROM json_to_recordset(?::json) AS v(id text, revision integer, launch_config text)
          WHERE sessions.id = v.id`
      : `UPDATE sessions SET revision = v.value ->> '$.revision', launch_config = v.value ->> '$.launch_config',
                updated_at = ?
           FROM json_each(?) AS v
          WHERE sessions.id = v.value ->> '$.id'`;
  for (const slice of chunks(rows)) await sendWrite(db, db.raw(statement, [now, JSON.stringify(slice)]));
}
