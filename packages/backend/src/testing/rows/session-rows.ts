// A backend session row and its launch config as in-process tests seed them: idle at revision 1,
// acknowledged by agentctl, with no agent. Overrides name only what a test is about.
import type { LaunchConfig } from '@kandev/protocol';
import type { AgentSession } from '../../runtime/sessions/agent-session';

export function launchConfigFor(
  session: { id: string; taskId: string; workspaceId: string },
  overrides: Partial<LaunchConfig> = {},
): LaunchConfig {
  return {
    sessionId: session.id,
    taskId: session.taskId,
    workspaceId: session.workspaceId,
    surface: 'kanban_task',
    questionCapability: 'user',
    providers: [],
    revision: 1,
    ownsTaskTitle: false,
    mcpToken: '',
    systemPrompt: 'p',
    agent: null,
    ...overrides,
  };
}

export function sessionRow(
  launchConfig: LaunchConfig,
  overrides: Partial<Omit<AgentSession, 'launchConfig'>> & { at: string },
): AgentSession {
  const { at, ...rest } = overrides;
  return {
    id: launchConfig.sessionId,
    taskId: launchConfig.taskId,
    state: 'waiting_for_input',
    executor: 'local',
    agentctlAddress: '127.0.0.1:1',
    agentctlReplica: null,
    revision: launchConfig.revision,
    launchConfig,
    appliedRevision: launchConfig.revision,
    appliedProviders: [...launchConfig.providers],
    refreshError: null,
    refreshAttempts: 0,
    refreshedAt: null,
    mcpTokenHash: 'ab'.repeat(32),
    surface: launchConfig.surface,
    lastError: null,
    acpSessionId: null,
    createdAt: at,
    updatedAt: at,
    ...rest,
  };
}
