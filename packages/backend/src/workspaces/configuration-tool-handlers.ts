import type { ToolHandlers } from '../tool-calls/tool-call';
import type { ToolHandlerDeps } from '../tool-calls/tool-handler-registry';

/** Configuration surface tools. */
export function createConfigurationToolHandlers(_deps: ToolHandlerDeps): ToolHandlers {
  return {};
}
