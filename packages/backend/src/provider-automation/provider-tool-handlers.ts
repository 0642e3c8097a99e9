import type { ToolHandlers } from '../tool-calls/tool-call';
import type { ToolHandlerDeps } from '../tool-calls/tool-handler-registry';

/** GitHub PR and GitLab MR automation tools. */
export function createProviderToolHandlers(_deps: ToolHandlerDeps): ToolHandlers {
  return {};
}
