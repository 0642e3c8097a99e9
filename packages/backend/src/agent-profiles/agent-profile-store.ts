import type { Knex } from 'knex';
import { z } from 'zod';
import type { AgentCommand } from '@kandev/protocol';
import { parseJsonColumn } from '../store/row-values';

const ArgsSchema = z.array(z.string());

interface AgentProfileRow {
  id: string;
  command: string;
  args: unknown;
}

/** Read side of agent profiles: the command agentctl should start for a task's sessions. */
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
}
