import type { SessionState as WireSessionState } from './generated/kandev/agentctl/v1/SessionState';
import type { SessionState__Output as WireSessionStateOutput } from './generated/kandev/agentctl/v1/SessionState';
import { type AgentRuntimeState, agentStateFromWire, agentStateToWire } from './agent-runtime';
import { AppError } from './errors';
import { type LaunchConfig, launchConfigFromWire, launchConfigToWire, redactLaunchConfig } from './launch-config';

/** What agentctl holds for a session and what an agent can discover there right now. */
export interface RuntimeSessionState {
  /** As received, token blanked, providers as enforced. */
  config: LaunchConfig;
  toolNames: string[];
  connectionCount: number;
  mcpPath: string;
  createdAt: string;
  updatedAt: string;
  /** The session's agent process and its recent turns ('none' without an agent command). */
  agent: AgentRuntimeState;
}

export function sessionStateToWire(state: RuntimeSessionState): WireSessionState {
  return {
    config: launchConfigToWire(redactLaunchConfig(state.config)),
    tool_names: state.toolNames,
    connection_count: state.connectionCount,
    mcp_path: state.mcpPath,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    agent: agentStateToWire(state.agent),
  };
}

export function sessionStateFromWire(wire: WireSessionStateOutput): RuntimeSessionState {
  if (wire.config === null) throw new AppError('internal', 'agentctl returned a session without its config');
  return {
    config: launchConfigFromWire(wire.config, { requireToken: false }),
    toolNames: [...wire.tool_names],
    connectionCount: wire.connection_count,
    mcpPath: wire.mcp_path,
    createdAt: wire.created_at,
    updatedAt: wire.updated_at,
    agent: agentStateFromWire(wire.agent),
  };
}

/** The MCP endpoint path of a session on agentctl's MCP listener. */
export function mcpPathFor(sessionId: string): string {
  return `/sessions/${encodeURIComponent(sessionId)}/mcp`;
}
