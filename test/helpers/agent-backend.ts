// A hand-made backend for agentctl's agent runtime: it holds the Attach stream, collects the session
// events agentctl sends (in arrival order) and answers every tool call the agent makes with a canned
// result, recording the calls.
import {
  type AgentCtlClient,
  type SessionEvent,
  sessionEventFromWire,
  type WireAgentctlMessageOutput,
  type WireToolCallRequestOutput,
} from '@kandev/protocol';
import { type HandMadeAttach, openAttach } from './attach';
import type { Cleanup } from './cleanup';
import { TEST_CONTROL_TOKEN } from './processes';
import { waitUntil } from './wait';

export type EventKind = SessionEvent['kind'];

export interface AgentBackend {
  readonly attach: HandMadeAttach;
  /** Session events received so far, in arrival order. */
  readonly events: SessionEvent[];
  /** Tool calls the agent made through agentctl, in arrival order. */
  readonly toolCalls: WireToolCallRequestOutput[];
  /**
   * Events of one session, as `kind` strings (turn_ended adds its status and stop reason). Streamed
   * text arrives in as many pieces as the agent's writes were read in; the pieces of one run count
   * once, as the backend appends them to one entry.
   */
  kindsOf(sessionId: string): string[];
  /** The text of each run of agent messages, the pieces of a run joined, in order. */
  textRuns(sessionId: string): string[];
  /** Resolves the first event (from `fromIndex` on) that matches; fails with agentctl's logs on timeout. */
  waitFor(match: (event: SessionEvent) => boolean, what: string, fromIndex?: number): Promise<SessionEvent>;
}

/** Consecutive agent_message pieces of the same prompt and segment, joined into one event. */
function joinRuns(events: readonly SessionEvent[]): SessionEvent[] {
  const joined: SessionEvent[] = [];
  for (const event of events) {
    const last = joined.at(-1);
    const sameRun =
      last?.kind === 'agent_message' &&
      event.kind === 'agent_message' &&
      last.promptId === event.promptId &&
      last.segment === event.segment;
    if (sameRun) joined[joined.length - 1] = { ...last, text: last.text + event.text };
    else joined.push(event);
  }
  return joined;
}

/** `turn_ended` → `turn_ended:completed:end_turn`, so order and outcome read in one line. */
export function describeEvent(event: SessionEvent): string {
  if (event.kind === 'turn_ended') {
    return `turn_ended:${event.turn.status}:${event.turn.stopReason ?? event.turn.error ?? ''}`;
  }
  if (event.kind === 'agent_exited') return `agent_exited:${event.expected ? 'expected' : 'unexpected'}`;
  if (event.kind === 'tool_call') return `tool_call:${event.title}:${event.status}`;
  return event.kind;
}

/**
 * Opens Attach, says hello and waits for `accepted`; afterwards every message is handled in the
 * background until the stream ends (the test's cleanup cancels it).
 */
export async function attachBackend(
  cleanup: Cleanup,
  client: AgentCtlClient,
  logs: () => string,
  backendId = 'test-backend',
): Promise<AgentBackend> {
  const attach = openAttach(cleanup, client, TEST_CONTROL_TOKEN);
  attach.send({ hello: { backend_id: backendId } });
  const first = await attach.next(10_000);
  if (first.accepted == null) throw new Error(`expected accepted first, got ${JSON.stringify(first)}`);
  const events: SessionEvent[] = [];
  const toolCalls: WireToolCallRequestOutput[] = [];
  const handle = (message: WireAgentctlMessageOutput) => {
    if (message.session_event) events.push(sessionEventFromWire(message.session_event));
    if (message.tool_call) {
      toolCalls.push(message.tool_call);
      attach.send({
        tool_result: {
          call_id: message.tool_call.call_id,
          output: { text: `${message.tool_call.tool_name} ok`, structured_json: '', is_error: false },
        },
      });
    }
  };
  void (async () => {
    for (;;) {
      let message: WireAgentctlMessageOutput;
      try {
        message = await attach.next(10 * 60_000);
      } catch {
        return;
      }
      handle(message);
    }
  })();
  return {
    attach,
    events,
    toolCalls,
    kindsOf: (sessionId) => joinRuns(events.filter((e) => e.sessionId === sessionId)).map(describeEvent),
    textRuns: (sessionId) =>
      joinRuns(events.filter((e) => e.sessionId === sessionId)).flatMap((e) =>
        e.kind === 'agent_message' ? [e.text] : [],
      ),
    waitFor: (match, what, fromIndex = 0) =>
      waitUntil(() => events.slice(fromIndex).find(match), { timeoutMs: 20_000, logs, what }),
  };
}
