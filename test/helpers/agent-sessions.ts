// agentctl sessions that run an agent: launch configs, scripts for the scripted test agent, and the
// AgentCtl calls the agent runtime tests make (promisified, with the test control token).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type AgentCommand,
  type AgentCtlClient,
  type AgentRuntimeState,
  agentStateFromWire,
  type LaunchConfig,
  launchConfigToWire,
  type TurnRecord,
  turnRecordFromWire,
  type WirePromptResponseOutput,
  type WireSessionStateOutput,
} from '@kandev/protocol';
import { unary } from './agentctl-grpc';
import type { Cleanup } from './cleanup';
import { REPO_ROOT, TEST_CONTROL_TOKEN, tempDir } from './processes';
import { namedLaunchConfig } from './launch-configs';
import { sessionUuid } from './session-ids';

export const TEST_AGENT_MAIN = join(REPO_ROOT, 'packages/test-agent/dist/main.js');
export const AGENT_MCP_TOKEN = 'mcp-token-agent-runtime-0123456789abcdef012345';

/** Writes a scripted-agent script (see packages/test-agent/README.md) to a fresh temp file. */
export function writeAgentScript(cleanup: Cleanup, script: unknown): string {
  const path = join(tempDir(cleanup, 'kandev-agent-script-'), 'script.json');
  writeFileSync(path, JSON.stringify(script));
  return path;
}

/** The scripted test agent, started directly with this node binary. */
export function testAgentCommand(scriptPath: string, overrides: Partial<AgentCommand> = {}): AgentCommand {
  return {
    command: process.execPath,
    args: [TEST_AGENT_MAIN, '--script', scriptPath],
    env: {},
    cwd: REPO_ROOT,
    supportsMcp: true,
    resumeAcpSessionId: null,
    permissionPolicy: 'ask',
    ...overrides,
  };
}

/** The session id agentLaunchConfig uses unless overridden. */
export const AGENT_SESSION_ID = sessionUuid('agent-session');

/** A session (AGENT_SESSION_ID unless overridden) running `agent`, or MCP-only with null. */
export function agentLaunchConfig(agent: AgentCommand | null, overrides: Partial<LaunchConfig> = {}): LaunchConfig {
  const systemPrompt = 'You are a kandev task agent.';
  return namedLaunchConfig('agent-session', AGENT_MCP_TOKEN, { taskId: 'task-1', systemPrompt, agent, ...overrides });
}

export async function createSession(client: AgentCtlClient, config: LaunchConfig): Promise<WireSessionStateOutput> {
  return unary<object, WireSessionStateOutput>(
    client,
    client.CreateSession,
    launchConfigToWire(config),
    TEST_CONTROL_TOKEN,
  );
}

export async function agentState(client: AgentCtlClient, sessionId: string): Promise<AgentRuntimeState> {
  const state = await unary<object, WireSessionStateOutput>(
    client,
    client.GetSession,
    { session_id: sessionId },
    TEST_CONTROL_TOKEN,
  );
  return agentStateFromWire(state.agent);
}

export async function prompt(
  client: AgentCtlClient,
  sessionId: string,
  promptId: string,
  text: string,
): Promise<{ turn: TurnRecord; duplicate: boolean }> {
  const response = await unary<object, WirePromptResponseOutput>(
    client,
    client.Prompt,
    { session_id: sessionId, prompt_id: promptId, text },
    TEST_CONTROL_TOKEN,
  );
  if (response.turn === null) throw new Error('Prompt answered without a turn');
  return { turn: turnRecordFromWire(response.turn), duplicate: response.duplicate };
}

export async function cancelTurn(
  client: AgentCtlClient,
  sessionId: string,
): Promise<{ cancelled: boolean; prompt_id: string }> {
  return unary(client, client.CancelTurn, { session_id: sessionId }, TEST_CONTROL_TOKEN);
}

export async function stopSession(client: AgentCtlClient, sessionId: string): Promise<{ stopped: boolean }> {
  return unary(client, client.StopSession, { session_id: sessionId }, TEST_CONTROL_TOKEN);
}
