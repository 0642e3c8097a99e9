import { AppError, LaunchConfigSchema, ProviderSchema, redactLaunchConfig, SurfaceSchema } from '@kandev/protocol';
import { z } from 'zod';
import { columnsOf, parseJsonColumn, toIsoString, toNullableIsoString } from '../../../platform/store/row-values';
import { type AgentSession, AgentSessionStateSchema } from '../agent-session';

// A session as the sessions table holds it: the launch config redacted (the MCP token never reaches
// the database), JSON columns parsed and checked on the way out.

export interface SessionRow {
  id: string;
  task_id: string;
  state: string;
  executor: string;
  agentctl_address: string | null;
  agentctl_replica: string | null;
  revision: number | string;
  launch_config: unknown;
  applied_revision: number | string;
  applied_providers: unknown;
  refresh_error: string | null;
  refresh_attempts: number | string;
  refreshed_at: unknown;
  mcp_token_hash: string;
  surface: string;
  last_error: string | null;
  acp_session_id: string | null;
  created_at: unknown;
  updated_at: unknown;
}

export const SESSION_COLUMNS = columnsOf<SessionRow>({
  id: true,
  task_id: true,
  state: true,
  executor: true,
  agentctl_address: true,
  agentctl_replica: true,
  revision: true,
  launch_config: true,
  applied_revision: true,
  applied_providers: true,
  refresh_error: true,
  refresh_attempts: true,
  refreshed_at: true,
  mcp_token_hash: true,
  surface: true,
  last_error: true,
  acp_session_id: true,
  created_at: true,
  updated_at: true,
});

/** A stored provider set (a JSON array of provider names). */
export const ProvidersColumnSchema = z.array(ProviderSchema);

export function fromRow(row: SessionRow): AgentSession {
  const state = AgentSessionStateSchema.safeParse(row.state);
  const surface = SurfaceSchema.safeParse(row.surface);
  if (!state.success || !surface.success) throw new AppError('internal', `session ${row.id} has an unknown state`);
  return {
    id: row.id,
    taskId: row.task_id,
    state: state.data,
    executor: row.executor,
    agentctlAddress: row.agentctl_address,
    agentctlReplica: row.agentctl_replica ?? null,
    revision: Number(row.revision),
    launchConfig: parseJsonColumn(LaunchConfigSchema, row.launch_config, 'sessions.launch_config'),
    appliedRevision: Number(row.applied_revision),
    appliedProviders:
      row.applied_providers === null
        ? null
        : parseJsonColumn(ProvidersColumnSchema, row.applied_providers, 'sessions.applied_providers'),
    refreshError: row.refresh_error,
    refreshAttempts: Number(row.refresh_attempts),
    refreshedAt: toNullableIsoString(row.refreshed_at),
    mcpTokenHash: row.mcp_token_hash,
    surface: surface.data,
    lastError: row.last_error,
    acpSessionId: row.acp_session_id ?? null,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

export function toRow(session: AgentSession): Record<keyof SessionRow, unknown> {
  return {
    id: session.id,
    task_id: session.taskId,
    state: session.state,
    executor: session.executor,
    agentctl_address: session.agentctlAddress,
    agentctl_replica: session.agentctlReplica,
    revision: session.revision,
    launch_config: JSON.stringify(redactLaunchConfig(session.launchConfig)),
    applied_revision: session.appliedRevision,
    applied_providers: session.appliedProviders === null ? null : JSON.stringify(session.appliedProviders),
    refresh_error: session.refreshError,
    refresh_attempts: session.refreshAttempts,
    refreshed_at: session.refreshedAt,
    mcp_token_hash: session.mcpTokenHash,
    surface: session.surface,
    last_error: session.lastError,
    acp_session_id: session.acpSessionId,
    created_at: session.createdAt,
    updated_at: session.updatedAt,
  };
}
