// The event types of the backend's live stream (GET /api/events, docs/events.md). No imports: the web
// console bundles this file too, so the browser listens for exactly the types the backend records.

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
  'pr.lifecycle',
  'task.created',
  'task.updated',
  'task.archived',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Sent once, never stored: the Last-Event-ID given is older than the oldest event still retained. */
export const RESET_EVENT = 'reset';

/**
 * Sent once per connect, never stored: its id is the log's head when the replay ended, so a client that
 * got no event yet still has a Last-Event-ID to resume from. Clients that do not know it skip it.
 */
export const STREAM_HEAD_EVENT = 'stream.head';
