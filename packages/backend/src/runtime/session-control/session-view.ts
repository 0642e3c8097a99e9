import {
  type AgentCommand,
  type AgentRuntimeState,
  type AgentStatus,
  type LaunchConfig,
  type Provider,
  type QuestionCapability,
  redactLaunchConfig,
  type Surface,
  type SystemPromptDelivery,
} from '@kandev/protocol';
import type { AgentSession, AgentSessionState } from '../sessions/agent-session';

/** A launch config as REST shows it: snake_case, never the MCP token. */
export interface LaunchConfigView {
  session_id: string;
  task_id: string;
  workspace_id: string;
  surface: Surface;
  question_capability: QuestionCapability;
  providers: Provider[];
  revision: number;
  owns_task_title: boolean;
  system_prompt: string;
  agent: AgentCommand | null;
}

/** Always redacted: agent env values never leave the backend (only their names do). */
export function toLaunchConfigView(unredacted: LaunchConfig): LaunchConfigView {
  const config = redactLaunchConfig(unredacted);
  return {
    session_id: config.sessionId,
    task_id: config.taskId,
    workspace_id: config.workspaceId,
    surface: config.surface,
    question_capability: config.questionCapability,
    providers: [...config.providers],
    revision: config.revision,
    owns_task_title: config.ownsTaskTitle,
    system_prompt: config.systemPrompt,
    agent: config.agent,
  };
}

export interface LaunchedSessionView {
  session_id: string;
  mcp_url: string;
  /** Shown once, here; the backend keeps only its SHA-256. */
  mcp_token: string;
  launch_config: LaunchConfigView;
}

/** What agentctl reports about a session right now, or why it could not be asked. */
export interface RuntimeReport {
  tools: string[] | null;
  connectionCount: number | null;
  /** The config agentctl holds for the session (token blank), to compare with what the backend derived. */
  launchConfig: LaunchConfig | null;
  agentctl: { reachable: boolean; error?: string };
  mcpUrl: string | null;
  /** The session's agent process as agentctl reports it; null when agentctl could not be asked. */
  agent: AgentRuntimeState | null;
}

/** The agent process, as GET /api/sessions/:id shows it (its turns are the prompts' business). */
export interface AgentView {
  status: AgentStatus;
  pid: number | null;
  acp_session_id: string | null;
  loaded: boolean;
  current_prompt_id: string | null;
  exit_reason: string | null;
  /** The ACP session mode agentctl set for the permission policy (null: the agent offers none). */
  mode_id: string | null;
  /** How the system prompt reached the agent ('none': not delivered, or not yet). */
  system_prompt_delivery: SystemPromptDelivery;
  /** The agent listed its MCP tools at the handshake (false: it has no kandev tools). */
  mcp_connected: boolean;
}

export function toAgentView(agent: AgentRuntimeState): AgentView {
  return {
    status: agent.status,
    pid: agent.pid,
    acp_session_id: agent.acpSessionId,
    loaded: agent.loaded,
    current_prompt_id: agent.currentPromptId,
    exit_reason: agent.exitReason,
    mode_id: agent.modeId,
    system_prompt_delivery: agent.systemPromptDelivery,
    mcp_connected: agent.mcpConnected,
  };
}

export interface SessionView {
  id: string;
  task_id: string;
  state: AgentSessionState;
  executor: string;
  /** The desired revision (what the database derives). */
  revision: number;
  launch_config: LaunchConfigView;
  /** The last revision agentctl acknowledged; behind `revision` while a live refresh is pending. */
  applied_revision: number;
  /** Why the last live refresh did not land, or null. */
  refresh_error: string | null;
  mcp_url: string | null;
  tools: string[] | null;
  connection_count: number | null;
  last_error: string | null;
  /** The agent's ACP session id as the backend recorded it (resume continues it). */
  acp_session_id: string | null;
  /** `launch_config`: the config as agentctl received it, null when it could not be asked. */
  agentctl: { reachable: boolean; error?: string; launch_config: LaunchConfigView | null };
  /** From agentctl; null when it could not be asked. */
  agent: AgentView | null;
  created_at: string;
  updated_at: string;
}

export function toSessionView(session: AgentSession, runtime: RuntimeReport): SessionView {
  return {
    id: session.id,
    task_id: session.taskId,
    state: session.state,
    executor: session.executor,
    revision: session.revision,
    launch_config: toLaunchConfigView(session.launchConfig),
    applied_revision: session.appliedRevision,
    refresh_error: session.refreshError,
    mcp_url: runtime.mcpUrl,
    tools: runtime.tools,
    connection_count: runtime.connectionCount,
    last_error: session.lastError,
    acp_session_id: session.acpSessionId,
    agentctl: {
      ...runtime.agentctl,
      launch_config: runtime.launchConfig === null ? null : toLaunchConfigView(runtime.launchConfig),
    },
    agent: runtime.agent === null ? null : toAgentView(runtime.agent),
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}
