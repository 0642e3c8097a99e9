// The tool table: which tools a session gets is data, not branches. Pure: imports nothing from the SDK.
// agentctl builds each session's list from it; the backend checks every incoming call against it.
import { listAgentProfilesTool, listRepositoriesTool, listWorkspacesTool } from './configuration-tools';
import { askParentQuestionTool, askUserQuestionTool } from './question-tools';
import {
  getTaskMrAutomationTool,
  getTaskPrAutomationTool,
  updateTaskMrAutomationTool,
  updateTaskPrAutomationTool,
} from './review-automation-tools';
import {
  createTaskTool,
  getTaskTool,
  getTaskConversationTool,
  listTasksTool,
  listTaskSessionsTool,
  messageTaskTool,
  stepCompleteTool,
  stopTaskTool,
  updateTaskTool,
} from './task-tools';
import { setTaskTitleTool } from './task-title-tools';
import type { ToolContext } from './tool-context';
import type { ToolDefinition } from './tool-definition';
import { all, asks, on, ownsTitle, type Rule, via } from './tool-rules';
import { addWorkspaceSourcesTool } from './workspace-source-tools';

export interface ToolGroup {
  readonly name: string;
  readonly enabled: Rule;
  readonly tools: readonly ToolDefinition[];
}

export const TOOL_GROUPS = [
  {
    name: 'kanban-core',
    enabled: on('kanban_task'),
    tools: [
      listTasksTool,
      getTaskTool,
      createTaskTool,
      updateTaskTool,
      messageTaskTool,
      stopTaskTool,
      addWorkspaceSourcesTool,
      listTaskSessionsTool,
      getTaskConversationTool,
      stepCompleteTool,
    ],
  },
  { name: 'office-core', enabled: on('office_task'), tools: [getTaskTool, messageTaskTool, stepCompleteTool] },
  {
    name: 'configuration',
    enabled: on('configuration'),
    tools: [listWorkspacesTool, listRepositoriesTool, listAgentProfilesTool],
  },
  { name: 'user-question', enabled: asks('user'), tools: [askUserQuestionTool] },
  // On every surface, like the user question: the capability alone selects the question tool, so the
  // served list and the system prompt always agree on it.
  { name: 'parent-question', enabled: asks('parent'), tools: [askParentQuestionTool] },
  { name: 'task-title', enabled: ownsTitle, tools: [setTaskTitleTool] },
  {
    name: 'github-pr',
    enabled: all(on('kanban_task'), via('github')),
    tools: [getTaskPrAutomationTool, updateTaskPrAutomationTool],
  },
  {
    name: 'gitlab-mr',
    enabled: all(on('kanban_task'), via('gitlab')),
    tools: [getTaskMrAutomationTool, updateTaskMrAutomationTool],
  },
] as const satisfies readonly ToolGroup[];

export type ToolGroupName = (typeof TOOL_GROUPS)[number]['name'];

/** The groups a context enables, in table order. */
export function selectGroups(context: ToolContext, groups: readonly ToolGroup[] = TOOL_GROUPS): ToolGroup[] {
  return groups.filter((group) => group.enabled(context));
}

/** The tools a context gets, in table order: one loop over the table, no per-mode branch. */
export function selectTools(context: ToolContext, groups: readonly ToolGroup[] = TOOL_GROUPS): ToolDefinition[] {
  return selectGroups(context, groups).flatMap((group) => group.tools);
}
