// Test-only (excluded from the build): a valid launch config and its wire form.
import { type LaunchConfig, launchConfigToWire, type WireLaunchConfigOutput } from '@kandev/protocol';

export const MCP_TOKEN_A = 'mcp-token-a-0123456789abcdef0123456789abcdef';
export const MCP_TOKEN_B = 'mcp-token-b-0123456789abcdef0123456789abcdef';

export function launchConfig(overrides: Partial<LaunchConfig> = {}): LaunchConfig {
  return {
    sessionId: 'session-1',
    taskId: 'task-1',
    workspaceId: 'workspace-1',
    surface: 'kanban_task',
    questionCapability: 'user',
    providers: [],
    revision: 1,
    ownsTaskTitle: false,
    mcpToken: MCP_TOKEN_A,
    systemPrompt: 'You are a kandev task agent.',
    agent: null,
    ...overrides,
  };
}

/** CreateSession accepts only UUID session ids (the backend's `randomUUID`). */
export const WIRE_SESSION_ID = '0b7c5f0e-6a4d-4f4e-9d7a-2f1c3b5a8e90';

/** The launch config as grpc-js hands it to a handler (`--defaults`, enums as strings, uint64 as string). */
export function wireLaunchConfig(overrides: Partial<LaunchConfig> = {}): WireLaunchConfigOutput {
  const wire = launchConfigToWire(launchConfig({ sessionId: WIRE_SESSION_ID, ...overrides }));
  return {
    session_id: wire.session_id ?? '',
    task_id: wire.task_id ?? '',
    workspace_id: wire.workspace_id ?? '',
    surface: wire.surface as WireLaunchConfigOutput['surface'],
    question_capability: wire.question_capability as WireLaunchConfigOutput['question_capability'],
    providers: (wire.providers ?? []) as WireLaunchConfigOutput['providers'],
    revision: String(wire.revision),
    owns_task_title: wire.owns_task_title ?? false,
    mcp_token: wire.mcp_token ?? '',
    system_prompt: wire.system_prompt ?? '',
    agent: null,
  };
}
