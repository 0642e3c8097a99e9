import { useEffect, useRef } from 'preact/hooks';
import type { Message } from './api';
// The one list of event types, shared with the backend (a dependency-free protocol module).
import { EVENT_TYPES, RESET_EVENT } from '../../protocol/src/event-types';

/** One frame of GET /api/events (see docs/rest-api.md): the console only needs its type and scope. */
export interface LiveEvent {
  id: string;
  type: string;
  task_id: string | null;
  session_id: string | null;
  data: Record<string, unknown>;
}

const TYPES = [...EVENT_TYPES, RESET_EVENT];

/** When the backend refuses the stream (503: KANDEV_EVENT_MAX_STREAMS reached) the page re-reads instead. */
const FALLBACK_POLL_MS = 3_000;

/**
 * Calls `onEvent` for every live event matching the filter (`query`, e.g. `task_id=...`). EventSource
 * sends the sign-in cookie itself (same origin) and reconnects with Last-Event-ID; a stream that cannot
 * be opened at all falls back to polling, with a synthetic `poll` event.
 */
export function useLiveEvents(query: string, onEvent: (event: LiveEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const source = new EventSource(`/api/events${query === '' ? '' : `?${query}`}`);
    const deliver = (message: MessageEvent<string>) => {
      try {
        handler.current(JSON.parse(message.data) as LiveEvent);
      } catch {
        // a frame that is not JSON: ignore it, the next real one refreshes the page anyway
      }
    };
    for (const type of TYPES) source.addEventListener(type, deliver as EventListener);
    source.onerror = () => {
      // CLOSED: the server refused the stream (404, 401); a transient drop stays CONNECTING and retries.
      if (source.readyState !== EventSource.CLOSED || timer !== undefined) return;
      timer = setInterval(() => {
        handler.current({ id: '', type: 'poll', task_id: null, session_id: null, data: {} });
      }, FALLBACK_POLL_MS);
    };
    return () => {
      source.close();
      if (timer !== undefined) clearInterval(timer);
    };
  }, [query]);
}

/** The conversation entry a message.created / message.updated event carries (same view as REST). */
export function messageOf(event: LiveEvent): Message | undefined {
  if (event.type !== 'message.created' && event.type !== 'message.updated') return undefined;
  const message = event.data.message as Partial<Message> | undefined;
  return typeof message?.id === 'string' && typeof message.content === 'string' ? (message as Message) : undefined;
}

/**
 * The conversation with `message` in it: an entry already shown is replaced in place (an agent's text
 * grows as it streams, a plan or tool call moves on), a new one is appended.
 */
export function upsertMessage(messages: Message[], message: Message): Message[] {
  const at = messages.findIndex((m) => m.id === message.id);
  if (at < 0) return [...messages, message];
  const next = [...messages];
  next[at] = message;
  return next;
}
