import { createMessageToolHandlers } from './message-tools';
import type { ToolHandlerDeps, ToolHandlers } from '../tool-calls/tool-handler';
import { createWorkspaceSourceToolHandlers } from './workspace-source-tools';
import { createTaskReadToolHandlers } from './task-read-tools';
import { createTaskStopToolHandlers } from './task-stop-tool';
import { createTaskWriteToolHandlers } from './task-write-tools';

/**
 * Kanban and office core tools and set_task_title_kandev. Every handler checks the tool is served to
 * the session, parses its strict schema, then checks the target against the bound caller
 * (task-tool-access.ts) before it reads or writes anything else.
 */
export function createTaskToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return {
    ...createTaskReadToolHandlers(deps),
    ...createTaskWriteToolHandlers(deps),
    ...createTaskStopToolHandlers(deps),
    ...createWorkspaceSourceToolHandlers(deps),
    ...createMessageToolHandlers(deps),
  };
}
