import type { Knex } from 'knex';
import { z } from 'zod';
import type { AgentCommand } from '@kandev/protocol';
import { parseJsonColumn, toBoolean, toIsoString } from '../store/row-values';
import type { AgentProfile } from './agent-profile';

const ArgsSchema = z.array(z.string());

interface AgentProfileRow {
  id: string;
  command: string;
  args: unknown;
}

interface FullAgentProfileRow extends AgentProfileRow {
  name: string;
  supports_mcp: unknown;
  created_at: unknown;
}

function fromRow(row: FullAgentProfileRow): AgentProfile {
  return {
    id: row.id,
    name: row.name,
    command: row.command,
    args: parseJsonColumn(ArgsSchema, row.args, 'agent_profiles.args'),
    supportsMcp: toBoolean(row.supports_mcp),
    createdAt: toIsoString(row.created_at),
  };
}

/** Agent profiles: the command agentctl should start for a task's sessions, and what it supports. */
export class AgentProfileStore {
  constructor(private readonly db: Knex) {}

  async findCommand(id: string): Promise<AgentCommand | undefined> {
    const row = await this.db<AgentProfileRow>('agent_profiles').where({ id }).first('id', 'command', 'args');
    if (row === undefined) return undefined;
    return {
      command: row.command,
      args: parseJsonColumn(ArgsSchema, row.args, 'agent_profiles.args'),
      env: {},
      cwd: null,
    };
  }

  async insert(profile: AgentProfile): Promise<void> {
    await this.db('agent_profiles').insert({
      id: profile.id,
      name: profile.name,
      command: profile.command,
      args: JSON.stringify(profile.args),
      supports_mcp: profile.supportsMcp,
      created_at: profile.createdAt,
    });
  }

  async findById(id: string): Promise<AgentProfile | undefined> {
    const row = await this.db<FullAgentProfileRow>('agent_profiles').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Every profile, by name. */
  async list(): Promise<AgentProfile[]> {
    const rows = await this.db<FullAgentProfileRow>('agent_profiles').orderBy([{ column: 'name' }, { column: 'id' }]);
    return rows.map(fromRow);
  }
}
