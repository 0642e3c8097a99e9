import { z } from 'zod';

/** Every event type the log records (docs/events.md describes each one's `data`). */
export const EVENT_TYPES = [
  'message.created',
  'message.updated',
  'session.state_changed',
  'tools.changed',
  'question.created',
  'question.answered',
  'question.closed',
  'parent_question.created',
  'parent_question.answered',
  'parent_question.closed',
  'queue.changed',
  'mr.lifecycle',
  'task.created',
  'task.updated',
  'task.archived',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent once, never stored: the Last-Event-ID given is older than the oldest event still retained. */
export const RESET_EVENT = 'reset';

/** Which events a stream wants; both absent: every event. */
export interface EventFilter {
  taskId?: string;
  sessionId?: string;
}

/** One event as the log holds it. */
export interface StoredEvent {
  id: number;
  type: EventType;
  taskId: string | null;
  sessionId: string | null;
  data: Record<string, unknown>;
  at: string;
}

/** What a caller appends, inside the transaction that commits the change it describes. */
export interface NewEvent {
  type: EventType;
  taskId: string | null;
  sessionId: string | null;
  data: Record<string, unknown>;
  at: string;
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
