import type { ToolHandlers } from '../tool-calls/tool-call';
import type { ToolHandlerDeps } from '../tool-calls/tool-handler-registry';

/** Kanban and office core tools and set_task_title_kandev. */
export function createTaskToolHandlers(_deps: ToolHandlerDeps): ToolHandlers {
  return {};
}
