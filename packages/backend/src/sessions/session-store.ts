import type { Knex } from 'knex';
import { AppError, LaunchConfigSchema, redactLaunchConfig, SurfaceSchema } from '@kandev/protocol';
import { parseJsonColumn, toIsoString } from '../store/row-values';
import { type AgentSession, AgentSessionStateSchema } from './agent-session';

interface SessionRow {
  id: string;
  task_id: string;
  state: string;
  executor: string;
  agentctl_address: string | null;
  revision: number | string;
  launch_config: unknown;
  mcp_token_hash: string;
  surface: string;
  last_error: string | null;
  created_at: unknown;
  updated_at: unknown;
}

function fromRow(row: SessionRow): AgentSession {
  const state = AgentSessionStateSchema.safeParse(row.state);
  const surface = SurfaceSchema.safeParse(row.surface);
  if (!state.success || !surface.success) throw new AppError('internal', `session ${row.id} has an unknown state`);
  return {
    id: row.id,
    taskId: row.task_id,
    state: state.data,
    executor: row.executor,
    agentctlAddress: row.agentctl_address,
    revision: Number(row.revision),
    launchConfig: parseJsonColumn(LaunchConfigSchema, row.launch_config, 'sessions.launch_config'),
    mcpTokenHash: row.mcp_token_hash,
    surface: surface.data,
    lastError: row.last_error,
    createdAt: toIsoString(row.created_at),
    updatedAt: toIsoString(row.updated_at),
  };
}

export class SessionStore {
  constructor(private readonly db: Knex) {}

  /** The launch config is stored redacted: the MCP token never reaches the database. */
  async insert(session: AgentSession): Promise<void> {
    await this.db('sessions').insert({
      id: session.id,
      task_id: session.taskId,
      state: session.state,
      executor: session.executor,
      agentctl_address: session.agentctlAddress,
      revision: session.revision,
      launch_config: JSON.stringify(redactLaunchConfig(session.launchConfig)),
      mcp_token_hash: session.mcpTokenHash,
      surface: session.surface,
      last_error: session.lastError,
      created_at: session.createdAt,
      updated_at: session.updatedAt,
    });
  }

  async findById(id: string): Promise<AgentSession | undefined> {
    const row = await this.db<SessionRow>('sessions').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  async markRunning(id: string, agentctlAddress: string, now: string): Promise<void> {
    await this.db('sessions')
      .where({ id })
      .update({ state: 'running', agentctl_address: agentctlAddress, last_error: null, updated_at: now });
  }

  async markFailed(id: string, lastError: string, now: string): Promise<void> {
    await this.db('sessions').where({ id }).update({ state: 'failed', last_error: lastError, updated_at: now });
  }
}
