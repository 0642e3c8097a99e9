import { z } from 'zod';
import { AppError } from './errors';
import type { LaunchConfig as WireLaunchConfig } from './generated/kandev/agentctl/v1/LaunchConfig';
import type { LaunchConfig__Output as WireLaunchConfigOutput } from './generated/kandev/agentctl/v1/LaunchConfig';
import { PermissionPolicySchema, permissionPolicyFromWire, permissionPolicyToWire } from './permission';
import { ProviderSchema, providersFromWire, providerToWire } from './provider';
import { QuestionCapabilitySchema, questionCapabilityFromWire, questionCapabilityToWire } from './question-capability';
import { SurfaceSchema, surfaceFromWire, surfaceToWire } from './surface';

export const AgentCommandSchema = z
  .object({
    command: z.string().min(1),
    args: z.array(z.string()),
    env: z.record(z.string(), z.string()),
    cwd: z.string().min(1).nullable(),
    /** The agent receives the session's MCP server (agent profile supports_mcp). */
    supportsMcp: z.boolean(),
    /** Continue this ACP session with session/load when the agent can (resume); null: session/new. */
    resumeAcpSessionId: z.string().min(1).nullable(),
    /** How agentctl answers the agent's permission requests (agent profile permission_policy). */
    // Configs stored before the policy existed read as ask.
    permissionPolicy: PermissionPolicySchema.default('ask'),
  })
  .strict();
export type AgentCommand = z.infer<typeof AgentCommandSchema>;

/** Shown instead of an agent environment value wherever a config is stored, logged or echoed. */
export const REDACTED_ENV_VALUE = '<redacted>';

/** A session revision: a positive safe integer (uint64 on the wire, as a decimal string). */
export const RevisionSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** Everything agentctl needs to serve one session, derived by the backend from its own records. */
export const LaunchConfigSchema = z
  .object({
    sessionId: z.string().min(1),
    taskId: z.string().min(1),
    workspaceId: z.string().min(1),
    surface: SurfaceSchema,
    questionCapability: QuestionCapabilitySchema,
    providers: z.array(ProviderSchema),
    revision: RevisionSchema,
    ownsTaskTitle: z.boolean(),
    /** Empty wherever the config is shown or stored; only CreateSession carries the real token. */
    mcpToken: z.string(),
    systemPrompt: z.string(),
    agent: AgentCommandSchema.nullable(),
  })
  .strict();
export type LaunchConfig = z.infer<typeof LaunchConfigSchema>;

/** Minimum length of a per-session MCP bearer token accepted by agentctl. */
export const MCP_TOKEN_MIN_LENGTH = 32;

/**
 * The config as it may be stored or shown: the MCP token blanked and agent environment values (API
 * keys, say) replaced, names kept. Only CreateSession carries the real values.
 */
export function redactLaunchConfig(config: LaunchConfig): LaunchConfig {
  const agent =
    config.agent === null
      ? null
      : {
          ...config.agent,
          env: Object.fromEntries(Object.keys(config.agent.env).map((key) => [key, REDACTED_ENV_VALUE])),
        };
  return { ...config, mcpToken: '', agent };
}

export function launchConfigToWire(config: LaunchConfig): WireLaunchConfig {
  return {
    session_id: config.sessionId,
    task_id: config.taskId,
    workspace_id: config.workspaceId,
    surface: surfaceToWire(config.surface),
    question_capability: questionCapabilityToWire(config.questionCapability),
    providers: config.providers.map(providerToWire),
    revision: String(config.revision),
    owns_task_title: config.ownsTaskTitle,
    mcp_token: config.mcpToken,
    system_prompt: config.systemPrompt,
    agent:
      config.agent === null
        ? null
        : {
            command: config.agent.command,
            args: config.agent.args,
            env: config.agent.env,
            cwd: config.agent.cwd ?? '',
            supports_mcp: config.agent.supportsMcp,
            resume_acp_session_id: config.agent.resumeAcpSessionId ?? '',
            permission_policy: permissionPolicyToWire(config.agent.permissionPolicy),
          },
  };
}

export function revisionFromWire(value: unknown, field = 'revision'): number {
  const revision = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  const parsed = RevisionSchema.safeParse(revision);
  if (!parsed.success)
    throw new AppError('invalid_argument', `${field} must be a positive integer, got ${String(value)}`);
  return parsed.data;
}

function requireId(value: string, field: string): string {
  if (value.length === 0) throw new AppError('invalid_argument', `${field} is required`);
  return value;
}

/**
 * Parses a received launch config. UNSPECIFIED surface or capability is rejected; unknown provider
 * numbers are dropped (fail closed). `requireToken` is off for configs read back from GetSession,
 * where agentctl blanks the token.
 */
export function launchConfigFromWire(wire: WireLaunchConfigOutput, options: { requireToken: boolean }): LaunchConfig {
  if (options.requireToken && wire.mcp_token.length < MCP_TOKEN_MIN_LENGTH) {
    throw new AppError('invalid_argument', `mcp_token must be at least ${MCP_TOKEN_MIN_LENGTH} characters`);
  }
  const agent = wire.agent;
  const agentFieldsSet =
    agent !== null &&
    (agent.args.length > 0 || agent.cwd.length > 0 || Object.keys(agent.env).length > 0 || agent.supports_mcp);
  if (agent !== null && agent.command.length === 0 && agentFieldsSet) {
    throw new AppError('invalid_argument', 'agent.command is required when agent is set');
  }
  return {
    sessionId: requireId(wire.session_id, 'session_id'),
    taskId: requireId(wire.task_id, 'task_id'),
    workspaceId: requireId(wire.workspace_id, 'workspace_id'),
    surface: surfaceFromWire(wire.surface),
    questionCapability: questionCapabilityFromWire(wire.question_capability),
    providers: providersFromWire(wire.providers),
    revision: revisionFromWire(wire.revision),
    ownsTaskTitle: wire.owns_task_title,
    mcpToken: wire.mcp_token,
    systemPrompt: wire.system_prompt,
    agent:
      agent === null || agent.command.length === 0
        ? null
        : {
            command: agent.command,
            args: [...agent.args],
            env: { ...agent.env },
            cwd: agent.cwd.length > 0 ? agent.cwd : null,
            supportsMcp: agent.supports_mcp,
            resumeAcpSessionId: agent.resume_acp_session_id.length > 0 ? agent.resume_acp_session_id : null,
            permissionPolicy: permissionPolicyFromWire(agent.permission_policy),
          },
  };
}
