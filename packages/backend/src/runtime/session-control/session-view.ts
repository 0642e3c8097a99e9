import { z } from 'zod';
import {
  AGENT_STATUSES,
  AgentCommandSchema,
  type AgentRuntimeState,
  type LaunchConfig,
  ProviderSchema,
  QuestionCapabilitySchema,
  redactLaunchConfig,
  SurfaceSchema,
  SYSTEM_PROMPT_DELIVERIES,
} from '@kandev/protocol';
import { type AgentSession, AgentSessionStateSchema } from '../sessions/agent-session';
import { SESSION_HEALTHS, sessionHealth } from '../sessions/session-health';

// The session views REST sends, as zod schemas: the view functions return their output types, so the
// documented schema (GET /api/openapi.json, components) and what the handlers send cannot drift apart.

/** A launch config as REST shows it: snake_case, never the MCP token. */
export const LaunchConfigViewSchema = z
  .object({
    session_id: z.string(),
    task_id: z.string(),
    workspace_id: z.string(),
    surface: SurfaceSchema,
    question_capability: QuestionCapabilitySchema,
    providers: z.array(ProviderSchema),
    revision: z.number().int(),
    owns_task_title: z.boolean(),
    system_prompt: z.string(),
    agent: AgentCommandSchema.nullable().describe('the agent command; env values are always `<redacted>`'),
  })
  .strict()
  .meta({ id: 'LaunchConfig' });
export type LaunchConfigView = z.output<typeof LaunchConfigViewSchema>;

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

export const LaunchedSessionViewSchema = z
  .object({
    session_id: z.string(),
    mcp_url: z.string(),
    // Shown once, here; the backend keeps only its SHA-256.
    mcp_token: z.string().describe('shown only here: the backend keeps its SHA-256'),
    launch_config: LaunchConfigViewSchema,
  })
  .strict()
  .meta({ id: 'LaunchedSession' });
export type LaunchedSessionView = z.output<typeof LaunchedSessionViewSchema>;

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
export const AgentViewSchema = z
  .object({
    status: z.enum(AGENT_STATUSES),
    pid: z.number().int().nullable(),
    acp_session_id: z.string().nullable(),
    loaded: z.boolean(),
    current_prompt_id: z.string().nullable(),
    exit_reason: z.string().nullable(),
    mode_id: z.string().nullable().describe('the ACP session mode set for the permission policy (null: none offered)'),
    system_prompt_delivery: z
      .enum(SYSTEM_PROMPT_DELIVERIES)
      .describe('how the system prompt reached the agent (`none`: not delivered, or not yet)'),
    mcp_connected: z.boolean().describe('the agent listed its MCP tools (false: it has no kandev tools)'),
  })
  .strict()
  .meta({ id: 'SessionAgent' });
export type AgentView = z.output<typeof AgentViewSchema>;

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

const AgentctlReachSchema = z.object({ reachable: z.boolean(), error: z.string().optional() }).strict();

export const SessionViewSchema = z
  .object({
    id: z.string(),
    task_id: z.string(),
    state: AgentSessionStateSchema,
    executor: z.string(),
    revision: z.number().int().describe('the desired revision (what the database derives)'),
    launch_config: LaunchConfigViewSchema,
    applied_revision: z
      .number()
      .int()
      .describe('the last revision agentctl acknowledged; behind `revision` while a live refresh is pending'),
    refresh_error: z.string().nullable().describe('why the last live refresh did not land, or null'),
    mcp_url: z.string().nullable(),
    tools: z.array(z.string()).nullable().describe('the effective tool names; null when agentctl cannot be asked'),
    connection_count: z.number().int().nullable(),
    last_error: z.string().nullable(),
    exit_reason: z
      .string()
      .nullable()
      .describe('why the agent process ended, from agentctl (null: it runs, never ran, or agentctl was not reached)'),
    health: z
      .enum(SESSION_HEALTHS)
      .describe('the board badge: `failed`, `stuck` (live but agentctl or its agent is gone), `warning` or `ok`'),
    acp_session_id: z.string().nullable(),
    agentctl: AgentctlReachSchema.extend({
      launch_config: LaunchConfigViewSchema.nullable().describe('the config as agentctl received it'),
    }).strict(),
    agent: AgentViewSchema.nullable().describe('from agentctl; null when it could not be asked'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .strict()
  .meta({ id: 'Session' });
export type SessionView = z.output<typeof SessionViewSchema>;

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
    exit_reason: runtime.agent?.exitReason ?? null,
    health: sessionHealth({
      ...session,
      runtime: { reachable: runtime.agentctl.reachable, agentStatus: runtime.agent?.status ?? null },
    }),
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
