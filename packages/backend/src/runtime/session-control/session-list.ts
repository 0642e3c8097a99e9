import { z } from 'zod';
import { MAX_PAGE_LIMIT, SurfaceSchema } from '@kandev/protocol';
import { AppError } from '@kandev/protocol';
import {
  AGENT_SESSION_STATES,
  type AgentSession,
  type AgentSessionState,
  AgentSessionStateSchema,
} from '../sessions/agent-session';
import { SESSION_HEALTHS, sessionHealth } from '../sessions/session-health';
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

export const SESSION_SORTS = ['created_desc', 'created_asc'] as const;
export type SessionSort = (typeof SESSION_SORTS)[number];

/** GET /api/sessions: every filter optional, newest first unless `sort` says otherwise. */
export const ListSessionsQuerySchema = z
  .object({
    ...PageQueryShape,
    state: z
      .string()
      .max(200)
      .transform((raw) => raw.split(',').map((part) => part.trim()))
      .pipe(z.array(AgentSessionStateSchema).min(1))
      .optional()
      .describe('one state or several, comma-separated'),
    task_id: IdSchema.optional(),
    executor: z.string().trim().min(1).max(64).optional(),
    failed: z
      .enum(['true', 'false'])
      .transform((v) => v === 'true')
      .optional()
      .describe('`true`: only `failed` sessions; `false`: all but those'),
    sort: z.enum(SESSION_SORTS).optional().describe('default `created_desc` (newest first)'),
  })
  .strict();
export type ListSessionsQuery = z.infer<typeof ListSessionsQuerySchema>;

/** A session cursor holds the position (created_at, id) of the last session read, and its order. */
const SessionCursorSchema = z
  .object({ c: z.string().min(1).max(64), i: z.string().min(1).max(64), s: z.enum(SESSION_SORTS).optional() })
  .strict();

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
    last_error: z.string().nullable().describe('why it failed, or the latest warning about its agent'),
    refresh_error: z.string().nullable().describe('why the last live refresh did not land'),
    health: z
      .enum(SESSION_HEALTHS)
      .describe('`failed`, `warning` (an error is reported) or `ok`; `stuck` needs agentctl: GET /api/sessions/:id'),
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
    health: sessionHealth(session),
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}

/** The states a query admits (`failed` narrows `state`), or undefined for any. */
function statesOf(query: ListSessionsQuery): AgentSessionState[] | undefined {
  const all = query.state ?? AGENT_SESSION_STATES;
  if (query.failed === undefined) return query.state;
  return all.filter((state) => (state === 'failed') === query.failed);
}

/**
 * One page of sessions matching the query's filters, in creation order (`sort`, default as the caller
 * says: the global list newest first, a task's sessions oldest first).
 */
export async function listSessions(
  stores: Stores,
  query: ListSessionsQuery,
  defaultSort: SessionSort = 'created_desc',
  /** The caller's workspaces (a limited token); null: every workspace. */
  workspaceIds: readonly string[] | null = null,
): Promise<Page<AgentSession>> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const sort = query.sort ?? defaultSort;
  const after = query.cursor === undefined ? undefined : decodeCursor(SessionCursorSchema, query.cursor);
  if (after !== undefined && (after.s ?? 'created_asc') !== sort) {
    throw new AppError(
      'invalid_argument',
      `cursor was returned for sort=${after.s ?? 'created_asc'}; pass the same sort`,
      {
        field: 'cursor',
      },
    );
  }
  const rows = await stores.sessions.list({
    taskId: query.task_id,
    workspaceIds: workspaceIds ?? undefined,
    states: statesOf(query),
    executor: query.executor,
    newestFirst: sort === 'created_desc',
    after: after === undefined ? undefined : { createdAt: after.c, id: after.i },
    limit: limit + 1,
  });
  return pageOf(rows, limit, (session) => ({ c: session.createdAt, i: session.id, s: sort }));
}
