import { AppError } from './errors';
import { type TurnRecord, turnRecordFromWire, turnRecordToWire } from './agent-runtime';
import type { SessionEvent as WireSessionEvent } from './generated/kandev/agentctl/v1/SessionEvent';
import type { SessionEvent__Output as WireSessionEventOutput } from './generated/kandev/agentctl/v1/SessionEvent';

// What a session's agent did, sent by agentctl on the Attach stream in order per session.

export const TOOL_CALL_NOTICE_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type ToolCallNoticeStatus = (typeof TOOL_CALL_NOTICE_STATUSES)[number];

export type SessionEventBody =
  | { kind: 'agent_started'; pid: number; acpSessionId: string; loaded: boolean }
  | {
      kind: 'agent_exited';
      /** null when the process ended by a signal or never started. */
      exitCode: number | null;
      signal: string | null;
      reason: string;
      /** agentctl stopped it (stop, resume, shutdown); false for a crash or a failed start. */
      expected: boolean;
    }
  | { kind: 'turn_started'; promptId: string }
  | { kind: 'turn_ended'; turn: TurnRecord }
  | { kind: 'agent_message'; promptId: string; text: string }
  | {
      kind: 'tool_call';
      promptId: string;
      toolCallId: string;
      title: string;
      status: ToolCallNoticeStatus;
      /** The agent's raw input as JSON text ('' when unknown). */
      inputJson: string;
      outputText: string;
    };

export type SessionEvent = SessionEventBody & {
  sessionId: string;
  /** Increasing per agentctl process. */
  seq: number;
  occurredAt: string;
};

export function sessionEventToWire(event: SessionEvent): WireSessionEvent {
  const head = { session_id: event.sessionId, seq: String(event.seq), occurred_at: event.occurredAt };
  switch (event.kind) {
    case 'agent_started':
      return {
        ...head,
        agent_started: { pid: event.pid, acp_session_id: event.acpSessionId, loaded: event.loaded },
      };
    case 'agent_exited':
      return {
        ...head,
        agent_exited: {
          exit_code: event.exitCode ?? -1,
          signal: event.signal ?? '',
          reason: event.reason,
          expected: event.expected,
        },
      };
    case 'turn_started':
      return { ...head, turn_started: { prompt_id: event.promptId } };
    case 'turn_ended':
      return { ...head, turn_ended: { turn: turnRecordToWire(event.turn) } };
    case 'agent_message':
      return { ...head, agent_message: { prompt_id: event.promptId, text: event.text } };
    case 'tool_call':
      return {
        ...head,
        tool_call: {
          prompt_id: event.promptId,
          tool_call_id: event.toolCallId,
          title: event.title,
          status: event.status,
          input_json: event.inputJson,
          output_text: event.outputText,
        },
      };
  }
}

function toolCallStatus(value: string): ToolCallNoticeStatus {
  const known = TOOL_CALL_NOTICE_STATUSES.find((status) => status === value);
  if (known === undefined) throw new AppError('invalid_argument', `unknown tool call status ${value}`);
  return known;
}

function bodyFromWire(wire: WireSessionEventOutput): SessionEventBody {
  switch (wire.kind) {
    case 'agent_started': {
      const e = wire.agent_started;
      if (e) return { kind: 'agent_started', pid: e.pid, acpSessionId: e.acp_session_id, loaded: e.loaded };
      break;
    }
    case 'agent_exited': {
      const e = wire.agent_exited;
      if (e) {
        return {
          kind: 'agent_exited',
          exitCode: e.exit_code >= 0 ? e.exit_code : null,
          signal: e.signal.length > 0 ? e.signal : null,
          reason: e.reason,
          expected: e.expected,
        };
      }
      break;
    }
    case 'turn_started':
      if (wire.turn_started) return { kind: 'turn_started', promptId: wire.turn_started.prompt_id };
      break;
    case 'turn_ended':
      if (wire.turn_ended?.turn) return { kind: 'turn_ended', turn: turnRecordFromWire(wire.turn_ended.turn) };
      break;
    case 'agent_message':
      if (wire.agent_message) {
        return { kind: 'agent_message', promptId: wire.agent_message.prompt_id, text: wire.agent_message.text };
      }
      break;
    case 'tool_call': {
      const e = wire.tool_call;
      if (e) {
        return {
          kind: 'tool_call',
          promptId: e.prompt_id,
          toolCallId: e.tool_call_id,
          title: e.title,
          status: toolCallStatus(e.status),
          inputJson: e.input_json,
          outputText: e.output_text,
        };
      }
      break;
    }
    case undefined:
      break;
  }
  throw new AppError('invalid_argument', `session event without a body (kind ${String(wire.kind)})`);
}

/** Parses an event from agentctl; a malformed one throws invalid_argument (the caller logs and drops it). */
export function sessionEventFromWire(wire: WireSessionEventOutput): SessionEvent {
  if (wire.session_id.length === 0) throw new AppError('invalid_argument', 'session event without session_id');
  const seq = Number(wire.seq);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new AppError('invalid_argument', `bad event seq ${wire.seq}`);
  return { ...bodyFromWire(wire), sessionId: wire.session_id, seq, occurredAt: wire.occurred_at };
}
