import type { SystemPromptDelivery, TurnRecord } from './agent-runtime';

// What a session's agent did, sent by agentctl on the Attach stream in order per session. The wire
// mapping lives in session-event-wire.ts.

export const TOOL_CALL_NOTICE_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type ToolCallNoticeStatus = (typeof TOOL_CALL_NOTICE_STATUSES)[number];

/** warning: the session's last error says it; info: only recorded. */
export const AGENT_NOTICE_LEVELS = ['info', 'warning'] as const;
export type AgentNoticeLevel = (typeof AGENT_NOTICE_LEVELS)[number];

/**
 * What a notice is about. mcp_not_connected: the agent never listed its MCP tools (it has no kandev
 * tools); mode_unavailable: no session mode of the agent fits the permission policy; session_not_loaded:
 * a resume could not continue the ACP session and started a new one; tools_reloaded: the agent's ACP
 * session was reopened at a turn boundary so that it sees a changed tool list.
 */
export const AGENT_NOTICE_CODES = [
  'mcp_not_connected',
  'mode_unavailable',
  'session_not_loaded',
  'tools_reloaded',
] as const;
export type AgentNoticeCode = (typeof AGENT_NOTICE_CODES)[number];

/** Each notice's level: what keeps the agent from working as its profile promises is a warning. */
export const AGENT_NOTICE_LEVEL = {
  mcp_not_connected: 'warning',
  mode_unavailable: 'warning',
  session_not_loaded: 'warning',
  tools_reloaded: 'info',
} as const satisfies Record<AgentNoticeCode, AgentNoticeLevel>;

/** A file change reported by a tool call; texts cut at a size limit (truncated says so). */
export interface FileDiff {
  path: string;
  /** null: a new file. */
  oldText: string | null;
  newText: string;
  truncated: boolean;
}

export const PLAN_ENTRY_PRIORITIES = ['high', 'medium', 'low'] as const;
export const PLAN_ENTRY_STATUSES = ['pending', 'in_progress', 'completed'] as const;

export interface PlanEntry {
  content: string;
  priority: (typeof PLAN_ENTRY_PRIORITIES)[number];
  status: (typeof PLAN_ENTRY_STATUSES)[number];
}

export type SessionEventBody =
  | {
      kind: 'agent_started';
      pid: number;
      acpSessionId: string;
      loaded: boolean;
      /** The session mode set for the permission policy; null when the agent offers none. */
      modeId: string | null;
      systemPromptDelivery: SystemPromptDelivery;
      /** The agent listed its MCP tools before it was reported ready. */
      mcpConnected: boolean;
    }
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
  | {
      kind: 'agent_message';
      promptId: string;
      /** Appended to the run of text `segment` (from 1) of the prompt; 0: a whole run (older agentctl). */
      segment: number;
      text: string;
    }
  | {
      kind: 'tool_call';
      promptId: string;
      toolCallId: string;
      title: string;
      status: ToolCallNoticeStatus;
      /** The ACP tool kind ('' when unknown). */
      toolKind: string;
      /** The agent's raw input as JSON text ('' when unknown). */
      inputJson: string;
      outputText: string;
      diffs: FileDiff[];
    }
  | { kind: 'plan'; promptId: string; entries: PlanEntry[] }
  | { kind: 'agent_notice'; code: AgentNoticeCode; level: AgentNoticeLevel; message: string };

export type SessionEvent = SessionEventBody & {
  sessionId: string;
  /** Increasing per agentctl process. */
  seq: number;
  occurredAt: string;
};
