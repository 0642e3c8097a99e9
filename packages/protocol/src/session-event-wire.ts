import { AppError } from './errors';
import { SYSTEM_PROMPT_DELIVERIES, turnRecordFromWire, turnRecordToWire } from './agent-runtime';
import type { FileDiff as WireFileDiff } from './generated/kandev/agentctl/v1/FileDiff';
import type { FileDiff__Output as WireFileDiffOutput } from './generated/kandev/agentctl/v1/FileDiff';
import type { SessionEvent as WireSessionEvent } from './generated/kandev/agentctl/v1/SessionEvent';
import type { SessionEvent__Output as WireSessionEventOutput } from './generated/kandev/agentctl/v1/SessionEvent';
import {
  AGENT_NOTICE_CODES,
  AGENT_NOTICE_LEVELS,
  type FileDiff,
  PLAN_ENTRY_PRIORITIES,
  PLAN_ENTRY_STATUSES,
  type PlanEntry,
  type SessionEvent,
  type SessionEventBody,
  TOOL_CALL_NOTICE_STATUSES,
} from './session-event';

// Session events to and from the wire. From the wire (agentctl -> backend) every closed value is
// checked: an unknown one throws invalid_argument and the caller drops the event.

function oneOf<T extends string>(values: readonly T[], value: string, what: string): T {
  const known = values.find((v) => v === value);
  if (known === undefined) throw new AppError('invalid_argument', `unknown ${what} ${value}`);
  return known;
}

const diffToWire = (d: FileDiff): WireFileDiff => ({
  path: d.path,
  old_text: d.oldText ?? '',
  new_text: d.newText,
  truncated: d.truncated,
  new_file: d.oldText === null,
});

const diffFromWire = (d: WireFileDiffOutput): FileDiff => ({
  path: d.path,
  oldText: d.new_file ? null : d.old_text,
  newText: d.new_text,
  truncated: d.truncated,
});

const planEntryFromWire = (e: { content: string; priority: string; status: string }): PlanEntry => ({
  content: e.content,
  priority: oneOf(PLAN_ENTRY_PRIORITIES, e.priority, 'plan priority'),
  status: oneOf(PLAN_ENTRY_STATUSES, e.status, 'plan status'),
});

function bodyToWire(event: SessionEventBody): Omit<WireSessionEvent, 'session_id' | 'seq' | 'occurred_at'> {
  switch (event.kind) {
    case 'agent_started':
      return {
        agent_started: {
          pid: event.pid,
          acp_session_id: event.acpSessionId,
          loaded: event.loaded,
          mode_id: event.modeId ?? '',
          system_prompt_delivery: event.systemPromptDelivery,
          mcp_connected: event.mcpConnected,
        },
      };
    case 'agent_exited':
      return {
        agent_exited: {
          exit_code: event.exitCode ?? -1,
          signal: event.signal ?? '',
          reason: event.reason,
          expected: event.expected,
        },
      };
    case 'turn_started':
      return { turn_started: { prompt_id: event.promptId } };
    case 'turn_ended':
      return { turn_ended: { turn: turnRecordToWire(event.turn) } };
    case 'agent_message':
      return { agent_message: { prompt_id: event.promptId, text: event.text, segment: event.segment } };
    case 'tool_call':
      return {
        tool_call: {
          prompt_id: event.promptId,
          tool_call_id: event.toolCallId,
          title: event.title,
          status: event.status,
          kind: event.toolKind,
          input_json: event.inputJson,
          output_text: event.outputText,
          diffs: event.diffs.map(diffToWire),
        },
      };
    case 'plan':
      return { plan: { prompt_id: event.promptId, entries: event.entries } };
    case 'agent_notice':
      return { agent_notice: { code: event.code, level: event.level, message: event.message } };
  }
}

export function sessionEventToWire(event: SessionEvent): WireSessionEvent {
  return {
    session_id: event.sessionId,
    seq: String(event.seq),
    occurred_at: event.occurredAt,
    ...bodyToWire(event),
  };
}

function bodyFromWire(wire: WireSessionEventOutput): SessionEventBody | null | undefined {
  switch (wire.kind) {
    case 'agent_started': {
      const e = wire.agent_started;
      return (
        e && {
          kind: 'agent_started',
          pid: e.pid,
          acpSessionId: e.acp_session_id,
          loaded: e.loaded,
          modeId: e.mode_id.length > 0 ? e.mode_id : null,
          // An older agentctl sent the prompt in _meta and never checked MCP: read as what it did.
          systemPromptDelivery:
            e.system_prompt_delivery === ''
              ? 'none'
              : oneOf(SYSTEM_PROMPT_DELIVERIES, e.system_prompt_delivery, 'system prompt delivery'),
          mcpConnected: e.mcp_connected,
        }
      );
    }
    case 'agent_exited': {
      const e = wire.agent_exited;
      return (
        e && {
          kind: 'agent_exited',
          exitCode: e.exit_code >= 0 ? e.exit_code : null,
          signal: e.signal.length > 0 ? e.signal : null,
          reason: e.reason,
          expected: e.expected,
        }
      );
    }
    case 'turn_started':
      return wire.turn_started ? { kind: 'turn_started', promptId: wire.turn_started.prompt_id } : undefined;
    case 'turn_ended':
      return wire.turn_ended?.turn ? { kind: 'turn_ended', turn: turnRecordFromWire(wire.turn_ended.turn) } : undefined;
    case 'agent_message': {
      const e = wire.agent_message;
      return e && { kind: 'agent_message', promptId: e.prompt_id, segment: e.segment, text: e.text };
    }
    case 'tool_call': {
      const e = wire.tool_call;
      return (
        e && {
          kind: 'tool_call',
          promptId: e.prompt_id,
          toolCallId: e.tool_call_id,
          title: e.title,
          status: oneOf(TOOL_CALL_NOTICE_STATUSES, e.status, 'tool call status'),
          toolKind: e.kind,
          inputJson: e.input_json,
          outputText: e.output_text,
          diffs: e.diffs.map(diffFromWire),
        }
      );
    }
    case 'plan': {
      const e = wire.plan;
      return e && { kind: 'plan', promptId: e.prompt_id, entries: e.entries.map(planEntryFromWire) };
    }
    case 'agent_notice': {
      const e = wire.agent_notice;
      return (
        e && {
          kind: 'agent_notice',
          code: oneOf(AGENT_NOTICE_CODES, e.code, 'notice code'),
          level: oneOf(AGENT_NOTICE_LEVELS, e.level, 'notice level'),
          message: e.message,
        }
      );
    }
    case undefined:
      return undefined;
  }
}

/** Parses an event from agentctl; a malformed one throws invalid_argument (the caller logs and drops it). */
export function sessionEventFromWire(wire: WireSessionEventOutput): SessionEvent {
  if (wire.session_id.length === 0) throw new AppError('invalid_argument', 'session event without session_id');
  const seq = Number(wire.seq);
  if (!Number.isSafeInteger(seq) || seq < 0) throw new AppError('invalid_argument', `bad event seq ${wire.seq}`);
  const body = bodyFromWire(wire);
  if (body === undefined || body === null) {
    throw new AppError('invalid_argument', `session event without a body (kind ${String(wire.kind)})`);
  }
  return { ...body, sessionId: wire.session_id, seq, occurredAt: wire.occurred_at };
}
