import { AppError, listAgentProfilesTool, listRepositoriesTool, listWorkspacesTool } from '@kandev/protocol';
import { toAgentProfileView } from '../../catalogue/agent-profiles/agent-profile';
import { toRepositoryView } from '../../catalogue/repositories/repository';
import { reply } from '../tool-calls/tool-scope';
import { loadCaller } from '../../runtime/sessions/task-binding';
import { parseToolArgs } from '../../platform/http/tool-args';
import type { ToolCallContext, ToolHandlerDeps, ToolHandlers, ToolReply } from '../tool-calls/tool-handler';
import { toWorkspaceView } from '../../catalogue/workspaces/workspace';

// Configuration surface tools. A configuration session is bound to a task like any other; what it
// may configure is that task's workspace. Agent profiles are global (not per workspace).

const LIST_WORKSPACES = listWorkspacesTool.name;
const LIST_REPOSITORIES = listRepositoriesTool.name;
const LIST_AGENT_PROFILES = listAgentProfilesTool.name;

async function listWorkspaces(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  parseToolArgs(listWorkspacesTool, args);
  const caller = await loadCaller(deps.uow.read, context);
  const workspace = await deps.uow.read.workspaces.findById(caller.workspaceId);
  if (workspace === undefined) throw new AppError('not_found', `workspace ${caller.workspaceId} not found`);
  return reply(`${workspace.id} ${workspace.name}`, { workspaces: [toWorkspaceView(workspace)] });
}

async function listRepositories(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  const input = parseToolArgs(listRepositoriesTool, args);
  const caller = await loadCaller(deps.uow.read, context);
  const workspaceId = input.workspace_id ?? caller.workspaceId;
  if (workspaceId !== caller.workspaceId) {
    throw new AppError(
      'permission_denied',
      `${LIST_REPOSITORIES} lists your own workspace only; ${workspaceId} is not`,
      {
        workspace_id: workspaceId,
      },
    );
  }
  const repositories = (await deps.uow.read.repositories.listByWorkspace(workspaceId)).map(toRepositoryView);
  const lines = repositories.map(
    (r) => `${r.id} ${r.name} (${r.provider ?? 'none'}) ${r.remote_url ?? r.local_path ?? ''}`,
  );
  const text = lines.length === 0 ? `Workspace ${workspaceId} has no repositories.` : lines.join('\n');
  return reply(text, { workspace_id: workspaceId, repositories });
}

async function listAgentProfiles(deps: ToolHandlerDeps, context: ToolCallContext, args: unknown): Promise<ToolReply> {
  parseToolArgs(listAgentProfilesTool, args);
  await loadCaller(deps.uow.read, context);
  const profiles = (await deps.uow.read.agentProfiles.list()).map(toAgentProfileView);
  const lines = profiles.map(
    (p) => `${p.id} ${p.name}: ${p.command}${p.supports_mcp ? '' : ' (no MCP: not for autopilot)'}`,
  );
  const text = lines.length === 0 ? 'No agent profiles.' : lines.join('\n');
  return reply(text, { agent_profiles: profiles });
}

/** Configuration surface tools. */
export function createConfigurationToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return {
    [LIST_WORKSPACES]: (context, args) => listWorkspaces(deps, context, args),
    [LIST_REPOSITORIES]: (context, args) => listRepositories(deps, context, args),
    [LIST_AGENT_PROFILES]: (context, args) => listAgentProfiles(deps, context, args),
  };
}
