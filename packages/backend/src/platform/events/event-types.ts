import { z } from 'zod';
import { EVENT_TYPES, type EventType } from '@kandev/protocol';
import type { Actor } from '../access/actor';

export { ADMIN_EVENT_TYPES, EVENT_TYPES, type EventType, RESET_EVENT, STREAM_HEAD_EVENT } from '@kandev/protocol';

/** Which events a stream wants (every condition given must hold); none given: every event. */
export interface EventFilter {
  taskId?: string;
  sessionId?: string;
  /** Events of a task in this workspace. */
  workspaceId?: string;
  /** Any of these types. */
  types?: readonly EventType[];
  /**
   * Only events of tasks in these workspaces, or of these workspaces themselves (a limited token's
   * scope); absent: every workspace, and events of none.
   */
  workspaceIds?: readonly string[];
  /** None of these types (a token that is not an admin never gets ADMIN_EVENT_TYPES). */
  hiddenTypes?: readonly EventType[];
}

/** One event as the log holds it. */
export interface StoredEvent {
  id: number;
  type: EventType;
  taskId: string | null;
  sessionId: string | null;
  data: Record<string, unknown>;
  at: string;
  /** Who made the change (null: the backend itself). */
  actor: Actor | null;
}

/** What a caller appends, inside the transaction that commits the change it describes. */
export interface NewEvent {
  type: EventType;
  taskId: string | null;
  sessionId: string | null;
  data: Record<string, unknown>;
  at: string;
  /** Who made the change; absent: the actor of the work running now (access/actor.ts), if any. */
  actor?: Actor | null;
  /**
   * The workspace of an event of no task (a repository, a credential, the workspace): streams limited to
   * workspaces carry it to that workspace only. Absent with no task: only streams of every workspace.
   */
  workspaceId?: string;
}

export const EventTypeSchema = z.enum(EVENT_TYPES);
export const EventDataSchema = z.record(z.string(), z.unknown());

/** The wire form of one event (the SSE frame's `data:`); ids are decimal strings. */
export interface EventView {
  id: string;
  type: string;
  at: string;
  task_id: string | null;
  session_id: string | null;
  data: Record<string, unknown>;
}

export function toEventView(event: StoredEvent): EventView {
  return {
    id: String(event.id),
    type: event.type,
    at: event.at,
    task_id: event.taskId,
    session_id: event.sessionId,
    data: event.data,
  };
}
