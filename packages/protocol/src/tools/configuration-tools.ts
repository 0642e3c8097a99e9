import { z } from 'zod';
import { defineTool } from './tool-definition';
import { toolId } from './tool-inputs';

export const listWorkspacesTool = defineTool({
  name: 'list_workspaces_kandev',
  description: 'List the workspaces you can configure, with their ids and names.',
  readOnly: true,
  input: z.object({}).strict(),
});

export const listRepositoriesTool = defineTool({
  name: 'list_repositories_kandev',
  description:
    'List the repositories registered in a workspace with their provider (github, gitlab or none), remote URL ' +
    'or local path. Omit workspace_id for your current workspace.',
  readOnly: true,
  input: z
    .object({ workspace_id: toolId().optional().describe('Workspace to list. Omit for the current one.') })
    .strict(),
});

export const listAgentProfilesTool = defineTool({
  name: 'list_agent_profiles_kandev',
  description:
    'List the agent profiles tasks can run with (id, name, command) and whether each can receive MCP tools, ' +
    'which autopilot tasks require.',
  readOnly: true,
  input: z.object({}).strict(),
});
