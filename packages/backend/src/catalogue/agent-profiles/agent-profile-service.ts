import { AppError } from '@kandev/protocol';
import { isUniqueViolation } from '../../platform/store/constraint-errors';
import { newId } from '../../platform/store/row-values';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { AgentProfile, CreateAgentProfileBody, UpdateAgentProfileBody } from './agent-profile';

function nameTaken(name: string, cause?: unknown): AppError {
  return new AppError('already_exists', `an agent profile named ${name} already exists`, { name }, { cause });
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

  /** Changes the permission policy; sessions started from then on carry it (running ones keep theirs). */
  async update(id: string, body: UpdateAgentProfileBody): Promise<AgentProfile> {
    if (!(await this.deps.uow.read.agentProfiles.updatePermissionPolicy(id, body.permission_policy))) {
      throw new AppError('not_found', `agent profile ${id} not found`);
    }
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    await this.deps.uow.transaction(async (stores) => {
      if ((await stores.agentProfiles.findById(id)) === undefined) {
        throw new AppError('not_found', `agent profile ${id} not found`);
      }
      if (await stores.agentProfiles.isUsedByTask(id)) {
        throw new AppError('failed_precondition', `agent profile ${id} is used by a task and cannot be deleted`, {
          agent_profile_id: id,
        });
      }
      await stores.agentProfiles.delete(id);
    });
  }
}
