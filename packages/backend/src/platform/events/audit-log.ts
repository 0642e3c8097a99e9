import { z } from 'zod';
import { EVENT_TYPES, MAX_PAGE_LIMIT } from '@kandev/protocol';
import { decodeCursor, DEFAULT_PAGE_LIMIT, type Page, pageOf } from '../store/page-cursor';
import type { Sql } from '../store/sql';
import { type Actor, ActorSchema } from '../access/actor';
import { performance } from 'node:perf_hooks';
import { actorOfRow, PRUNE_BATCH, type PruneOptions, restAfter } from './event-store';
import { EventDataSchema } from './event-types';
import { parseJsonColumn, toIsoString } from '../store/row-values';

export const AuditQuerySchema = z
  .object({
    actor_kind: z.enum(['token', 'session']).optional().describe('only changes made by tokens, or by agents'),
    actor_id: z.string().min(1).max(128).optional().describe('only changes made by this token id or session id'),
    type: z.enum(EVENT_TYPES).optional().describe('only events of this type'),
    task_id: z.string().min(1).max(128).optional().describe('only changes to this task'),
    cursor: z.string().min(1).max(512).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export const AuditEntrySchema = z
  .object({
    id: z.string().describe("the entry's id (the trail's own: newest first, cursors page by it)"),
    type: z.enum(EVENT_TYPES),
    at: z.string(),
    task_id: z.string().nullable(),
    session_id: z.string().nullable(),
    actor: ActorSchema,
    data: z.record(z.string(), z.unknown()),
  })
  .strict()
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const CursorSchema = z.object({ id: z.number().int().positive() }).strict();

interface AuditRow {
  id: number | string;
  type: (typeof EVENT_TYPES)[number];
  task_id: string | null;
  session_id: string | null;
  payload: unknown;
  created_at: unknown;
  actor_kind: string | null;
  actor_id: string | null;
  actor_name: string | null;
}

function entryOf(row: AuditRow, actor: Actor): AuditEntry {
  return {
    id: String(row.id),
    type: row.type,
    at: toIsoString(row.created_at),
    task_id: row.task_id,
    session_id: row.session_id,
    actor,
    data: parseJsonColumn(EventDataSchema, row.payload, 'events.payload'),
  };
}

/**
 * The audit trail: the events a token or an agent's session caused, copied to `audit_entries` as they
 * are appended (event-store.ts), newest first, in keyset pages by id. Kept for its own retention
 * (`pruneAudit`), longer than the event log keeps its events.
 */
export async function readAudit(db: Sql, query: AuditQuery): Promise<Page<AuditEntry>> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const rows = db<AuditRow>('audit_entries');
  if (query.actor_kind !== undefined) void rows.where({ actor_kind: query.actor_kind });
  if (query.actor_id !== undefined) void rows.where({ actor_id: query.actor_id });
  if (query.type !== undefined) void rows.where({ type: query.type });
  if (query.task_id !== undefined) void rows.where({ task_id: query.task_id });
  if (query.cursor !== undefined) void rows.where('id', '<', decodeCursor(CursorSchema, query.cursor).id);
  const found = await rows.orderBy('id', 'desc').limit(limit + 1);
  const entries = found.flatMap((row) => {
    const actor = actorOfRow(row);
    return actor === null ? [] : [{ row, entry: entryOf(row, actor) }];
  });
  const page = pageOf(entries, limit, ({ row }) => ({ id: Number(row.id) }));
  return { items: page.items.map(({ entry }) => entry), nextCursor: page.nextCursor };
}

/**
 * Drops the entries recorded before `cutoff` (ISO), oldest first, `batch` rows per statement with
 * `pause` between statements (as the event log's pruning: no request waits long); resolves how many went.
 */
export async function pruneAudit(db: Sql, cutoff: string, options: PruneOptions = {}): Promise<number> {
  const batch = options.batch ?? PRUNE_BATCH;
  const pause = options.pause ?? restAfter;
  let dropped = 0;
  for (;;) {
    const started = performance.now();
    const rows = (await db('audit_entries')
      .select('id')
      .where('created_at', '<', cutoff)
      .orderBy('id')
      .limit(batch)) as { id: number | string }[];
    if (rows.length === 0) return dropped;
    dropped += await db('audit_entries')
      .whereIn(
        'id',
        rows.map((row) => Number(row.id)),
      )
      .delete();
    if (rows.length < batch) return dropped;
    await pause(performance.now() - started);
  }
}
