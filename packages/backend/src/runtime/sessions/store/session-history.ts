import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { type NewEvent, PRUNE_BATCH, type PruneOptions, restAfter } from '../../../platform/events/event-store';
import { ENDED_SESSION_STATES } from '../session-lifecycle';
import { sendWrite } from '../../../platform/store/driver/store-transaction';
import { parseJsonColumn, toIsoString } from '../../../platform/store/row-values';
import type { Sql } from '../../../platform/store/sql';
import { fromTimeBound, type TimeBound } from '../../../platform/store/time-keyset';

// A session's history (the `session_history` table): its state changes and tool-list revisions, kept
// for its task's timeline after the event log has dropped the events that announced them.

const StateChangeSchema = z.looseObject({
  state: z.string(),
  previous_state: z.string().nullable(),
  error: z.string().optional(),
});
const ToolsRevisionSchema = z.looseObject({
  revision: z.number(),
  providers: z.array(z.string()),
  added: z.array(z.string()),
  removed: z.array(z.string()),
});

export type SessionHistoryEntry = { id: number; sessionId: string; at: string } & (
  | { kind: 'state_change'; state: string; previousState: string | null; error: string | null }
  | { kind: 'tools_revision'; revision: number; providers: string[]; added: string[]; removed: string[] }
);

interface HistoryRow {
  id: number | string;
  session_id: string;
  task_id: string;
  kind: string;
  payload: unknown;
  created_at: unknown;
}

const KIND_OF_EVENT = { 'session.state_changed': 'state_change', 'tools.changed': 'tools_revision' } as const;

function fromRow(row: HistoryRow): SessionHistoryEntry {
  const base = { id: Number(row.id), sessionId: row.session_id, at: toIsoString(row.created_at) };
  if (row.kind === 'state_change') {
    const data = parseJsonColumn(StateChangeSchema, row.payload, 'session_history.payload');
    const error = data.error ?? null;
    return { ...base, kind: 'state_change', state: data.state, previousState: data.previous_state, error };
  }
  const { revision, providers, added, removed } = parseJsonColumn(
    ToolsRevisionSchema,
    row.payload,
    'session_history.payload',
  );
  return { ...base, kind: 'tools_revision', revision, providers, added, removed };
}

/** Keeps the history rows of these events (others are ignored), in one multi-row insert per 500. */
export async function keepHistory(db: Sql, events: readonly NewEvent[]): Promise<void> {
  const rows = events.flatMap((event) => {
    const kind =
      event.type === 'session.state_changed' || event.type === 'tools.changed' ? KIND_OF_EVENT[event.type] : undefined;
    if (kind === undefined || event.sessionId === null || event.taskId === null) return [];
    const payload = JSON.stringify(event.data);
    return [{ session_id: event.sessionId, task_id: event.taskId, kind, payload, created_at: event.at }];
  });
  for (let i = 0; i < rows.length; i += 500) await sendWrite(db, db('session_history').insert(rows.slice(i, i + 500)));
}

/** Up to `limit` history rows of the task's sessions after `bound`, oldest first. */
export async function listSessionHistory(
  db: Sql,
  taskId: string,
  bound: TimeBound | undefined,
  limit: number,
): Promise<SessionHistoryEntry[]> {
  const query = db<HistoryRow>('session_history').where({ task_id: taskId });
  const rows: HistoryRow[] = await fromTimeBound(query, 'created_at', 'id', bound).limit(limit);
  return rows.map(fromRow);
}

/**
 * The details of sessions that ended before `cutoff` (ISO; by the session's last change): their
 * tool-list revisions in the history and their last reported tool list. What stays: their state
 * changes (the timeline's outline), their messages and prompts. Deleted `batch` rows per statement with
 * `pause` between statements, so no request waits long; resolves how many rows went.
 */
export async function pruneEndedSessionDetails(db: Sql, cutoff: string, options: PruneOptions = {}): Promise<number> {
  const batch = options.batch ?? PRUNE_BATCH;
  const pause = options.pause ?? restAfter;
  const ended = () =>
    db('sessions')
      .select('id')
      .whereIn('state', [...ENDED_SESSION_STATES])
      .where('updated_at', '<', cutoff);
  let dropped = 0;
  for (const [table, pick] of [
    ['session_history', () => db('session_history').select('id').where({ kind: 'tools_revision' })],
    ['session_tool_lists', () => db('session_tool_lists').select('session_id as id')],
  ] as const) {
    const key = table === 'session_history' ? 'id' : 'session_id';
    for (;;) {
      const started = performance.now();
      const rows = (await pick().whereIn('session_id', ended()).limit(batch)) as { id: string | number }[];
      if (rows.length === 0) break;
      dropped += await db(table)
        .whereIn(
          key,
          rows.map((row) => row.id),
        )
        .delete();
      if (rows.length < batch) break;
      await pause(performance.now() - started);
    }
  }
  return dropped;
}
