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
  'turn.cancel_requested',
  'permission_grant.revoked',
  'pr.linked',
  'mr.linked',
  'mr.evaluated',
  'workspace.created',
  'repository.created',
  'credential.set',
  'credential.removed',
  'agent_profile.created',
  'agent_profile.updated',
  'agent_profile.deleted',
  'token.created',
  'token.revoked',
  'login_link.created',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * What only an admin's stream carries: changes to API tokens and sign-in links (who holds which role is
 * the admin's business, as GET /api/tokens is). Every other type reaches whoever may read its task or
 * workspace.
 */
export const ADMIN_EVENT_TYPES: readonly EventType[] = ['token.created', 'token.revoked', 'login_link.created'];

/** Sent once, never stored: the Last-Event-ID given is older than the oldest event still retained. */
export const RESET_EVENT = 'reset';

/**
 * Sent once per connect, never stored: its id is the log's head when the replay ended, so a client that
 * got no event yet still has a Last-Event-ID to resume from. Clients that do not know it skip it.
 */
export const STREAM_HEAD_EVENT = 'stream.head';
