import { z } from 'zod';
import { type AgentCommand, PermissionPolicySchema } from '@kandev/protocol';
import type { SecretBox } from '../../platform/secrets/secret-box';
import { sendWrite } from '../../platform/store/driver/store-transaction';
import { parseJsonColumn, toBoolean, toIsoString } from '../../platform/store/row-values';
import type { AgentProfile } from './agent-profile';
import type { Sql } from '../../platform/store/sql';

const ArgsSchema = z.array(z.string());
const EnvSchema = z.record(z.string(), z.string());

interface AgentProfileRow {
  id: string;
  command: string;
  args: unknown;
  env: unknown;
  supports_mcp: unknown;
  permission_policy: string;
}

interface FullAgentProfileRow extends AgentProfileRow {
  name: string;
  created_at: unknown;
}

/** What a profile contributes to a launch config's agent command (the session adds cwd and resume). */
export type ProfileCommand = Pick<AgentCommand, 'command' | 'args' | 'env' | 'supportsMcp' | 'permissionPolicy'>;

/** A profile to insert; `env` defaults to none, `permissionPolicy` to ask. */
export interface AgentProfilePatch {
  name?: string;
  command?: string;
  args?: string[];
  /** A string sets the (plain) value, which is sealed on write; null removes the key. */
  env?: Record<string, string | null>;
  supportsMcp?: boolean;
  permissionPolicy?: AgentProfile['permissionPolicy'];
}

export type NewAgentProfile = Omit<AgentProfile, 'env' | 'permissionPolicy'> & {
  env?: Record<string, string>;
  permissionPolicy?: AgentProfile['permissionPolicy'];
};

/** An unknown stored value reads as ask (never more permissive than asking). */
function policyOf(value: unknown): AgentProfile['permissionPolicy'] {
  const parsed = PermissionPolicySchema.safeParse(value);
  return parsed.success ? parsed.data : 'ask';
}

function fromRow(row: FullAgentProfileRow): AgentProfile {
  return {
    id: row.id,
    name: row.name,
    command: row.command,
    args: parseJsonColumn(ArgsSchema, row.args, 'agent_profiles.args'),
    env: parseJsonColumn(EnvSchema, row.env ?? '{}', 'agent_profiles.env'),
    supportsMcp: toBoolean(row.supports_mcp),
    permissionPolicy: policyOf(row.permission_policy),
    createdAt: toIsoString(row.created_at),
  };
}

function mapValues(env: Record<string, string>, map: (value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, map(value)]));
}

/**
 * Agent profiles: the command agentctl should start for a task's sessions, and what it supports. Env
 * values are sealed (AES-256-GCM, secrets/) before they reach the database; only findCommand opens
 * them. Other reads return them as stored (sealed), which is all the names-only views need.
 */
export class AgentProfileStore {
  constructor(
    private readonly db: Sql,
    private readonly secrets: SecretBox,
  ) {}

  /**
   * The command for a launch config, with the environment's real values: only CreateSession carries
   * them; wherever the config is stored or shown it goes through redactLaunchConfig.
   */
  async findCommand(id: string): Promise<ProfileCommand | undefined> {
    const row = await this.db<AgentProfileRow>('agent_profiles')
      .where({ id })
      .first('id', 'command', 'args', 'env', 'supports_mcp', 'permission_policy');
    if (row === undefined) return undefined;
    return {
      command: row.command,
      args: parseJsonColumn(ArgsSchema, row.args, 'agent_profiles.args'),
      env: mapValues(parseJsonColumn(EnvSchema, row.env ?? '{}', 'agent_profiles.env'), (value) =>
        this.secrets.open(value),
      ),
      supportsMcp: toBoolean(row.supports_mcp),
      permissionPolicy: policyOf(row.permission_policy),
    };
  }

  async insert(profile: NewAgentProfile): Promise<void> {
    await this.db('agent_profiles').insert({
      id: profile.id,
      name: profile.name,
      command: profile.command,
      args: JSON.stringify(profile.args),
      env: JSON.stringify(mapValues(profile.env ?? {}, (value) => this.secrets.seal(value))),
      supports_mcp: profile.supportsMcp,
      permission_policy: profile.permissionPolicy ?? 'ask',
      created_at: profile.createdAt,
    });
  }

  /**
   * Writes the fields given; `env` as a merge patch over the stored (sealed) values: new values are
   * sealed here, removed keys dropped, the rest kept sealed as they are. False when no such profile.
   */
  async update(id: string, patch: AgentProfilePatch): Promise<boolean> {
    const row = await this.db<AgentProfileRow>('agent_profiles').where({ id }).first('id', 'env');
    if (row === undefined) return false;
    const changes: Record<string, unknown> = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.command !== undefined) changes.command = patch.command;
    if (patch.args !== undefined) changes.args = JSON.stringify(patch.args);
    if (patch.supportsMcp !== undefined) changes.supports_mcp = patch.supportsMcp;
    if (patch.permissionPolicy !== undefined) changes.permission_policy = patch.permissionPolicy;
    if (patch.env !== undefined) {
      const env = parseJsonColumn(EnvSchema, row.env ?? '{}', 'agent_profiles.env');
      for (const [key, value] of Object.entries(patch.env)) {
        if (value === null) delete env[key];
        else env[key] = this.secrets.seal(value);
      }
      changes.env = JSON.stringify(env);
    }
    if (Object.keys(changes).length > 0) {
      await sendWrite(this.db, this.db('agent_profiles').where({ id }).update(changes));
    }
    return true;
  }

  /** Whether an autopilot task (archived or not) names this profile: it must keep supporting MCP. */
  async isUsedByAutopilotTask(id: string): Promise<boolean> {
    const row = await this.db<{ id: string; agent_profile_id: string | null; autopilot: boolean }>('tasks')
      .where({ agent_profile_id: id, autopilot: true })
      .first('id');
    return row !== undefined;
  }

  async findById(id: string): Promise<AgentProfile | undefined> {
    const row = await this.db<FullAgentProfileRow>('agent_profiles').where({ id }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  async findByName(name: string): Promise<AgentProfile | undefined> {
    const row = await this.db<FullAgentProfileRow>('agent_profiles').where({ name }).first();
    return row === undefined ? undefined : fromRow(row);
  }

  /** Every profile, by name. */
  async list(): Promise<AgentProfile[]> {
    const rows = await this.db<FullAgentProfileRow>('agent_profiles').orderBy([{ column: 'name' }, { column: 'id' }]);
    return rows.map(fromRow);
  }

  /** Whether any task (archived or not) names this profile. */
  async isUsedByTask(id: string): Promise<boolean> {
    const row = await this.db<{ id: string; agent_profile_id: string | null }>('tasks')
      .where({ agent_profile_id: id })
      .first('id');
    return row !== undefined;
  }

  async delete(id: string): Promise<void> {
    await this.db('agent_profiles').where({ id }).delete();
  }
}
