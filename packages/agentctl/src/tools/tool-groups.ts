// The tool table: which tools a session gets is data, not branches. Pure: imports nothing from the SDK.
import { listAgentProfiles, listRepositories, listWorkspaces } from './configuration-tools';
import { askParentQuestion, askUserQuestion } from './question-tools';
import {
  getTaskMrAutomation,
  getTaskPrAutomation,
  updateTaskMrAutomation,
  updateTaskPrAutomation,
} from './review-automation-tools';
import {
  createTask,
  getTask,
  getTaskConversation,
  listTasks,
  listTaskSessions,
  messageTask,
  stepComplete,
  stopTask,
  updateTask,
} from './task-tools';
import { setTaskTitle } from './task-title-tools';
import type { ToolContext } from './tool-context';
import type { ToolDefinition } from './tool-definition';
import { all, asks, on, ownsTitle, type Rule, via } from './tool-rules';
import { addWorkspaceSources } from './workspace-source-tools';

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
      listTasks,
      getTask,
      createTask,
      updateTask,
      messageTask,
      stopTask,
      addWorkspaceSources,
      listTaskSessions,
      getTaskConversation,
      stepComplete,
    ],
  },
  { name: 'office-core', enabled: on('office_task'), tools: [getTask, messageTask, stepComplete] },
  { name: 'configuration', enabled: on('configuration'), tools: [listWorkspaces, listRepositories, listAgentProfiles] },
  { name: 'user-question', enabled: asks('user'), tools: [askUserQuestion] },
  { name: 'parent-question', enabled: all(asks('parent'), on('kanban_task')), tools: [askParentQuestion] },
  { name: 'task-title', enabled: ownsTitle, tools: [setTaskTitle] },
  {
    name: 'github-pr',
    enabled: all(on('kanban_task'), via('github')),
    tools: [getTaskPrAutomation, updateTaskPrAutomation],
  },
  {
    name: 'gitlab-mr',
    enabled: all(on('kanban_task'), via('gitlab')),
    tools: [getTaskMrAutomation, updateTaskMrAutomation],
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
