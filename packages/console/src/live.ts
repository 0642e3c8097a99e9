import { useEffect, useRef, useState } from 'preact/hooks';
import type { Message } from './api';
// The one list of event types, shared with the backend (a dependency-free protocol module).
import { EVENT_TYPES, RESET_EVENT, STREAM_HEAD_EVENT } from '../../protocol/src/event-types';

/** One frame of GET /api/events (see docs/rest-api.md): the console only needs its type and scope. */
export interface LiveEvent {
  id: string;
  type: string;
  task_id: string | null;
  session_id: string | null;
  data: Record<string, unknown>;
}

const TYPES = [...EVENT_TYPES, RESET_EVENT, STREAM_HEAD_EVENT];

/** When the stream cannot be opened (refused, or the backend is down for good) the page re-reads this often. */
const FALLBACK_POLL_MS = 3_000;

// Whether the live streams are connected, for the banner: a stream that dropped is "down" until its
// next `stream.head` frame (sent on every connect) says it is back.
type Connection = 'up' | 'down';
const streams = new Map<number, Connection>();
const listeners = new Set<() => void>();
let nextStream = 0;

function setStream(id: number, state: Connection | undefined): void {
  if (state === undefined) streams.delete(id);
  else streams.set(id, state);
  for (const listener of listeners) listener();
}

/** True while any open live stream is disconnected (the page may be showing stale data). */
export function useDisconnected(): boolean {
  const down = () => [...streams.values()].includes('down');
  const [value, setValue] = useState(down);
  useEffect(() => {
    const listener = () => setValue(down());
    listeners.add(listener);
    listener();
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return value;
}

/**
 * Calls `onEvent` for every live event matching the filter (`query`, e.g. `task_id=...`), and with a
 * `stream.head` event on every (re)connect: the page re-reads then, since it may have missed anything
 * while the stream was down (a backend restart fails sessions without events the page saw). EventSource
 * sends the sign-in cookie itself (same origin) and reconnects by itself after a drop; a stream the
 * backend refused (closed for good) is reopened every few seconds, with a synthetic `poll` meanwhile.
 */
export function useLiveEvents(query: string, onEvent: (event: LiveEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const id = nextStream++;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const deliver = (message: MessageEvent<string>) => {
      if (message.type === STREAM_HEAD_EVENT) {
        setStream(id, 'up');
        const head = { id: message.lastEventId, type: STREAM_HEAD_EVENT, task_id: null, session_id: null, data: {} };
        handler.current(head);
        return;
      }
      try {
        handler.current(JSON.parse(message.data) as LiveEvent);
      } catch {
        // a frame that is not JSON: ignore it, the next real one refreshes the page anyway
      }
    };
    const open = () => {
      source = new EventSource(`/api/events${query === '' ? '' : `?${query}`}`);
      for (const type of TYPES) source.addEventListener(type, deliver as EventListener);
      source.onerror = () => {
        setStream(id, 'down');
        // CONNECTING: a transient drop, EventSource retries by itself. CLOSED: refused (401, 503, a
        // proxy's 502): re-read now and then, and try the stream again.
        if (source?.readyState !== EventSource.CLOSED) return;
        source.close();
        retry = setTimeout(() => {
          handler.current({ id: '', type: 'poll', task_id: null, session_id: null, data: {} });
          open();
        }, FALLBACK_POLL_MS);
      };
    };
    open();
    return () => {
      source?.close();
      if (retry !== undefined) clearTimeout(retry);
      setStream(id, undefined);
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
