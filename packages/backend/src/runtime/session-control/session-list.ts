import { z } from 'zod';
import { MAX_PAGE_LIMIT, SurfaceSchema } from '@kandev/protocol';
import { AgentSessionStateSchema, type AgentSession } from '../sessions/agent-session';
import { DEFAULT_PAGE_LIMIT, decodeCursor, type Page, pageOf } from '../../platform/store/page-cursor';
import { IdSchema } from '../../platform/store/id-schema';
import type { Stores } from '../../platform/store/unit-of-work';

// Listing sessions over REST: one cheap read of the rows (agentctl is not asked; GET /api/sessions/:id
// does that for one session), never the MCP token or its hash.

const PageQueryShape = {
  cursor: z.string().min(1).max(512).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
};

/** GET /api/tasks/:id/sessions. */
export const TaskSessionsQuerySchema = z.object(PageQueryShape).strict();

/** GET /api/sessions: every filter optional. */
export const ListSessionsQuerySchema = z
  .object({
    ...PageQueryShape,
    state: AgentSessionStateSchema.optional(),
    task_id: IdSchema.optional(),
    executor: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type ListSessionsQuery = z.infer<typeof ListSessionsQuerySchema>;

/** A session cursor holds the position (created_at, id) of the last session read. */
const SessionCursorSchema = z.object({ c: z.string().min(1).max(64), i: z.string().min(1).max(64) }).strict();

/** A session in a listing (the schema documents it in GET /api/openapi.json). */
export const SessionSummaryViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    state: AgentSessionStateSchema,
    executor: z.string(),
    surface: SurfaceSchema,
    revision: z.number().int(),
    applied_revision: z.number().int(),
    /** Why it failed (or the latest warning about its agent), so a list shows it without a read per row. */
    last_error: z.string().nullable(),
    /** Why the last live tool refresh did not land. */
    refresh_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict()
  .meta({ id: 'SessionSummary' });
export type SessionSummaryView = z.infer<typeof SessionSummaryViewSchema>;

export function toSessionSummaryView(session: AgentSession): SessionSummaryView {
  return {
    id: session.id,
    task_id: session.taskId,
    state: session.state,
    executor: session.executor,
    surface: session.surface,
    revision: session.revision,
    applied_revision: session.appliedRevision,
    last_error: session.lastError,
    refresh_error: session.refreshError,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}

/** One page of sessions (creation order) matching the query's filters. */
export async function listSessions(stores: Stores, query: ListSessionsQuery): Promise<Page<AgentSession>> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const after = query.cursor === undefined ? undefined : decodeCursor(SessionCursorSchema, query.cursor);
  const rows = await stores.sessions.list({
    taskId: query.task_id,
    state: query.state,
    executor: query.executor,
    after: after === undefined ? undefined : { createdAt: after.c, id: after.i },
    limit: limit + 1,
  });
  return pageOf(rows, limit, (session) => ({ c: session.createdAt, i: session.id }));
}
