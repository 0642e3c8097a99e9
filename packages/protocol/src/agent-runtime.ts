import { AppError } from './errors';
import type { AgentState as WireAgentState } from './generated/kandev/agentctl/v1/AgentState';
import type { AgentState__Output as WireAgentStateOutput } from './generated/kandev/agentctl/v1/AgentState';
import type { AgentStatus__Output as WireAgentStatus } from './generated/kandev/agentctl/v1/AgentStatus';
import type { TurnRecord as WireTurnRecord } from './generated/kandev/agentctl/v1/TurnRecord';
import type { TurnRecord__Output as WireTurnRecordOutput } from './generated/kandev/agentctl/v1/TurnRecord';
import type { TurnStatus__Output as WireTurnStatus } from './generated/kandev/agentctl/v1/TurnStatus';

// The agent process agentctl runs for a session, and its prompt turns, as both sides see them.

export const AGENT_STATUSES = ['none', 'starting', 'ready', 'prompting', 'exited'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/**
 * How the session's system prompt reached the agent: spec_append (ACP systemPrompt, append mode, beside
 * the agent's own), first_prompt (a preamble on the ACP session's first prompt), kept (a loaded session
 * keeps the one it was created with), none (not delivered, or not yet).
 */
export const SYSTEM_PROMPT_DELIVERIES = ['spec_append', 'first_prompt', 'kept', 'none'] as const;
export type SystemPromptDelivery = (typeof SYSTEM_PROMPT_DELIVERIES)[number];

export const TURN_STATUSES = ['running', 'completed', 'failed'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** One prompt turn, keyed by the backend's prompt id. */
export interface TurnRecord {
  promptId: string;
  status: TurnStatus;
  /** ACP stop reason once completed (end_turn, cancelled, ...); null otherwise. */
  stopReason: string | null;
  /** failed: why; completed: a warning about the turn (the agent had no kandev tools, say), else null. */
  error: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface AgentRuntimeState {
  status: AgentStatus;
  pid: number | null;
  acpSessionId: string | null;
  /** The ACP session was continued with session/load. */
  loaded: boolean;
  currentPromptId: string | null;
  exitReason: string | null;
  /** Oldest first, bounded. */
  turns: TurnRecord[];
  /** The session mode set for the permission policy (null: none offered, or not yet set). */
  modeId: string | null;
  /** How the system prompt reached the agent ('none' until the handshake is done). */
  systemPromptDelivery: SystemPromptDelivery;
  /** The agent listed its MCP tools during the handshake. */
  mcpConnected: boolean;
}

export const NO_AGENT: AgentRuntimeState = {
  status: 'none',
  pid: null,
  acpSessionId: null,
  loaded: false,
  currentPromptId: null,
  exitReason: null,
  turns: [],
  modeId: null,
  systemPromptDelivery: 'none',
  mcpConnected: false,
};

const AGENT_STATUS_FROM_WIRE = {
  AGENT_STATUS_UNSPECIFIED: undefined,
  AGENT_STATUS_NONE: 'none',
  AGENT_STATUS_STARTING: 'starting',
  AGENT_STATUS_READY: 'ready',
  AGENT_STATUS_PROMPTING: 'prompting',
  AGENT_STATUS_EXITED: 'exited',
} as const satisfies Record<WireAgentStatus, AgentStatus | undefined>;

const AGENT_STATUS_TO_WIRE = {
  none: 'AGENT_STATUS_NONE',
  starting: 'AGENT_STATUS_STARTING',
  ready: 'AGENT_STATUS_READY',
  prompting: 'AGENT_STATUS_PROMPTING',
  exited: 'AGENT_STATUS_EXITED',
} as const satisfies Record<AgentStatus, WireAgentStatus>;

const TURN_STATUS_FROM_WIRE = {
  TURN_STATUS_UNSPECIFIED: undefined,
  TURN_STATUS_RUNNING: 'running',
  TURN_STATUS_COMPLETED: 'completed',
  TURN_STATUS_FAILED: 'failed',
} as const satisfies Record<WireTurnStatus, TurnStatus | undefined>;

const TURN_STATUS_TO_WIRE = {
  running: 'TURN_STATUS_RUNNING',
  completed: 'TURN_STATUS_COMPLETED',
  failed: 'TURN_STATUS_FAILED',
} as const satisfies Record<TurnStatus, WireTurnStatus>;

function fromTable<W extends string, D>(table: Record<W, D | undefined>, value: unknown, what: string): D {
  const mapped = typeof value === 'string' && value in table ? table[value as W] : undefined;
  if (mapped === undefined) throw new AppError('internal', `agentctl sent an unknown ${what}: ${String(value)}`);
  return mapped;
}

const orNull = (value: string): string | null => (value.length > 0 ? value : null);

export function turnRecordToWire(turn: TurnRecord): WireTurnRecord {
  return {
    prompt_id: turn.promptId,
    status: TURN_STATUS_TO_WIRE[turn.status],
    stop_reason: turn.stopReason ?? '',
    error: turn.error ?? '',
    started_at: turn.startedAt,
    ended_at: turn.endedAt ?? '',
  };
}

export function turnRecordFromWire(wire: WireTurnRecordOutput): TurnRecord {
  return {
    promptId: wire.prompt_id,
    status: fromTable(TURN_STATUS_FROM_WIRE, wire.status, 'turn status'),
    stopReason: orNull(wire.stop_reason),
    error: orNull(wire.error),
    startedAt: wire.started_at,
    endedAt: orNull(wire.ended_at),
  };
}

export function agentStateToWire(state: AgentRuntimeState): WireAgentState {
  return {
    status: AGENT_STATUS_TO_WIRE[state.status],
    pid: state.pid ?? 0,
    acp_session_id: state.acpSessionId ?? '',
    loaded: state.loaded,
    current_prompt_id: state.currentPromptId ?? '',
    exit_reason: state.exitReason ?? '',
    turns: state.turns.map(turnRecordToWire),
    mode_id: state.modeId ?? '',
    system_prompt_delivery: state.systemPromptDelivery,
    mcp_connected: state.mcpConnected,
  };
}

/** A session without agent state on the wire (an older agentctl) reads as NO_AGENT. */
export function agentStateFromWire(wire: WireAgentStateOutput | null | undefined): AgentRuntimeState {
  if (wire === null || wire === undefined) return NO_AGENT;
  return {
    status: fromTable(AGENT_STATUS_FROM_WIRE, wire.status, 'agent status'),
    pid: wire.pid > 0 ? wire.pid : null,
    acpSessionId: orNull(wire.acp_session_id),
    loaded: wire.loaded,
    currentPromptId: orNull(wire.current_prompt_id),
    exitReason: orNull(wire.exit_reason),
    turns: wire.turns.map(turnRecordFromWire),
    modeId: orNull(wire.mode_id),
    systemPromptDelivery: SYSTEM_PROMPT_DELIVERIES.find((d) => d === wire.system_prompt_delivery) ?? 'none',
    mcpConnected: wire.mcp_connected,
  };
}
