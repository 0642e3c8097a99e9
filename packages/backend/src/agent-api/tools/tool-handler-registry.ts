import { createProviderToolHandlers } from './provider-tools';
import { createParentQuestionToolHandlers } from './parent-question-tools';
import { createQuestionToolHandlers } from './question-tools';
import { createTaskToolHandlers } from './task-tool-handlers';
import { createConfigurationToolHandlers } from './configuration-tools';
import type { ToolHandlerDeps, ToolHandlers } from '../tool-calls/tool-handler';

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
