import { AppError } from '@kandev/protocol';
import { isUniqueViolation } from '../../platform/store/constraint-errors';
import { newId } from '../../platform/store/row-values';
import type { Stores, UnitOfWork } from '../../platform/store/unit-of-work';
import {
  type AgentProfile,
  type CreateAgentProfileBody,
  MAX_ENV_ENTRIES,
  patchedEnvKeys,
  type UpdateAgentProfileBody,
} from './agent-profile';

function nameTaken(name: string, cause?: unknown): AppError {
  return new AppError('already_exists', `an agent profile named ${name} already exists`, { name }, { cause });
}

/**
 * A profile's change in the event log (the audit trail): its id and name, and for an update the fields
 * given; never a command line or env value (they may hold secrets). Of no workspace: only streams of
 * every workspace carry it.
 */
async function recordProfileEvent(
  stores: Stores,
  type: 'agent_profile.created' | 'agent_profile.updated' | 'agent_profile.deleted',
  profile: { id: string; name: string },
  at: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const data = { agent_profile: { id: profile.id, name: profile.name }, ...extra };
  await stores.events.append({ type, taskId: null, sessionId: null, data, at });
}

/** Register, read and remove agent profiles. Names are unique; a profile a task uses stays. */
export class AgentProfileService {
  constructor(private readonly deps: { uow: UnitOfWork; clock: () => Date }) {}

  async create(body: CreateAgentProfileBody): Promise<AgentProfile> {
    const profile: AgentProfile = {
      id: newId(),
      name: body.name,
      command: body.command,
      args: body.args ?? [],
      env: body.env ?? {},
      supportsMcp: body.supports_mcp,
      permissionPolicy: body.permission_policy ?? 'ask',
      createdAt: this.deps.clock().toISOString(),
    };
    try {
      await this.deps.uow.transaction(async (stores) => {
        if ((await stores.agentProfiles.findByName(profile.name)) !== undefined) throw nameTaken(profile.name);
        await stores.agentProfiles.insert(profile);
        await recordProfileEvent(stores, 'agent_profile.created', profile, profile.createdAt);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(profile.name, error);
      throw error;
    }
    return profile;
  }

  async list(): Promise<AgentProfile[]> {
    return this.deps.uow.read.agentProfiles.list();
  }

  async get(id: string): Promise<AgentProfile> {
    const profile = await this.deps.uow.read.agentProfiles.findById(id);
    if (profile === undefined) throw new AppError('not_found', `agent profile ${id} not found`);
    return profile;
  }

  /**
   * Changes the fields given, all or nothing; sessions started from then on carry them (running ones
   * keep theirs until resumed). Refused: a name another profile has (409), more env entries than
   * allowed (400), and `supports_mcp: false` while an autopilot task uses the profile (409).
   */
  async update(id: string, body: UpdateAgentProfileBody): Promise<AgentProfile> {
    try {
      const now = () => this.deps.clock().toISOString();
      await this.deps.uow.transaction(async (stores) => {
        const current = await stores.agentProfiles.findById(id);
        if (current === undefined) throw new AppError('not_found', `agent profile ${id} not found`);
        if (body.name !== undefined && body.name !== current.name) {
          if ((await stores.agentProfiles.findByName(body.name)) !== undefined) throw nameTaken(body.name);
        }
        if (body.env !== undefined && patchedEnvKeys(Object.keys(current.env), body.env).length > MAX_ENV_ENTRIES) {
          throw new AppError('invalid_argument', `env holds at most ${MAX_ENV_ENTRIES} entries`, { field: 'env' });
        }
        if (body.supports_mcp === false && (await stores.agentProfiles.isUsedByAutopilotTask(id))) {
          throw new AppError(
            'failed_precondition',
            `agent profile ${current.name} is used by an autopilot task, which needs the MCP tool set`,
            { agent_profile_id: id },
          );
        }
        await stores.agentProfiles.update(id, {
          name: body.name,
          command: body.command,
          args: body.args,
          env: body.env,
          supportsMcp: body.supports_mcp,
          permissionPolicy: body.permission_policy,
        });
        const changed = Object.keys(body).filter((field) => body[field as keyof UpdateAgentProfileBody] !== undefined);
        await recordProfileEvent(stores, 'agent_profile.updated', { id, name: body.name ?? current.name }, now(), {
          changed,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error) && body.name !== undefined) throw nameTaken(body.name, error);
      throw error;
    }
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    await this.deps.uow.transaction(async (stores) => {
      const profile = await stores.agentProfiles.findById(id);
      if (profile === undefined) throw new AppError('not_found', `agent profile ${id} not found`);
      if (await stores.agentProfiles.isUsedByTask(id)) {
        throw new AppError('failed_precondition', `agent profile ${id} is used by a task and cannot be deleted`, {
          agent_profile_id: id,
        });
      }
      await stores.agentProfiles.delete(id);
      await recordProfileEvent(stores, 'agent_profile.deleted', profile, this.deps.clock().toISOString());
    });
  }
}
