import type { LaunchConfig } from '@kandev/protocol';
import { sessionUuid } from './session-ids';

/**
 * An MCP-only launch config for a session named in the test (its id on the wire is sessionUuid(name)):
 * what tests that call CreateSession themselves send, at revision 1 with no providers unless overridden.
 */
export function namedLaunchConfig(name: string, mcpToken: string, overrides: Partial<LaunchConfig> = {}): LaunchConfig {
  return {
    sessionId: sessionUuid(name),
    taskId: `task-of-${name}`,
    workspaceId: 'ws-1',
    surface: 'kanban_task',
    questionCapability: 'user',
    providers: [],
    revision: 1,
    ownsTaskTitle: false,
    mcpToken,
    systemPrompt: 'prompt',
    agent: null,
    ...overrides,
  };
}
