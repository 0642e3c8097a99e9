import type { AgentCommand, LaunchConfig, Surface } from '@kandev/protocol';
import { providerSetOf } from '../../catalogue/repositories/provider-set';
import { questionCapabilityFor } from './question-capability-rule';
import { systemPromptFor } from './system-prompt';

/** Everything a launch config is built from, read in one consistent snapshot. */
export interface LaunchInput {
  task: { id: string; workspaceId: string; autopilot: boolean };
  /** Whether the task's direct parent exists (read in the same transaction as the task). */
  hasParent: boolean;
  /** The stored provider of every attached repository (null for local or unknown). */
  repositoryProviders: readonly (string | null)[];
  surface: Surface;
  ownsTaskTitle: boolean;
  sessionId: string;
  revision: number;
  mcpToken: string;
  agent: AgentCommand | null;
}

/** Pure and deterministic: the same input always yields the same config. */
export function buildLaunchConfig(input: LaunchInput): LaunchConfig {
  const questionCapability = questionCapabilityFor({ autopilot: input.task.autopilot, hasParent: input.hasParent });
  return {
    sessionId: input.sessionId,
    taskId: input.task.id,
    workspaceId: input.task.workspaceId,
    surface: input.surface,
    questionCapability,
    providers: providerSetOf(input.repositoryProviders),
    revision: input.revision,
    ownsTaskTitle: input.ownsTaskTitle,
    mcpToken: input.mcpToken,
    systemPrompt: systemPromptFor(questionCapability),
    agent: input.agent === null ? null : { ...input.agent, args: [...input.agent.args], env: { ...input.agent.env } },
  };
}
