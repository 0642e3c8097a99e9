import type { Logger } from '../logger';
import type { PromptKicker } from '../prompt-queue/drain-gate';
import { createProviderToolHandlers } from './provider-tools';
import { createParentQuestionToolHandlers } from './parent-question-tools';
import { createQuestionToolHandlers } from './question-tools';
import type { QuestionService } from '../questions/question-service';
import type { RuntimeSessionControl } from '../session-runtime/runtime-session-control';
import type { UnitOfWork } from '../store/unit-of-work';
import { createTaskToolHandlers } from './task-tool-handlers';
import type { TaskService } from '../tasks/task-service';
import type { WorkspaceSourceService } from '../workspace-sources/workspace-source-service';
import { createConfigurationToolHandlers } from './configuration-tools';
import type { ToolHandlers } from './tool-handler';

/** What tool handlers may use. Extend it additively; handlers take only what they need. */
export interface ToolHandlerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  tasks: TaskService;
  workspaceSources: WorkspaceSourceService;
  /** Stops child sessions' runtimes for stop_task_kandev; without it the stop is recorded only. */
  runtimeSessions?: RuntimeSessionControl;
  /** Operator questions: held ask_user_question calls, ended when their session stops. */
  questions: QuestionService;
  /** Drains a session's queue after a tool queued a prompt for it (message_task_kandev). */
  prompts: PromptKicker;
}

/**
 * Every tool the backend serves, by MCP tool name. One module per domain contributes its handlers;
 * a name agentctl forwards that is missing here is refused by the dispatcher.
 */
export function createToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  const handlers = [
    createTaskToolHandlers(deps),
    createConfigurationToolHandlers(deps),
    createProviderToolHandlers(deps),
    createQuestionToolHandlers(deps),
    createParentQuestionToolHandlers(deps),
  ];
  const merged: Record<string, ToolHandlers[string]> = {};
  for (const group of handlers) {
    for (const [name, handler] of Object.entries(group)) {
      if (name in merged) throw new Error(`tool handler ${name} is registered twice`);
      merged[name] = handler;
    }
  }
  return merged;
}
