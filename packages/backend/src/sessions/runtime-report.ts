import { isAppError } from '@kandev/protocol';
import type { AgentctlConnector } from '../executors/agentctl-client';
import { type AgentctlDirectory, directoryOf } from '../executors/agentctl-directory';
import type { Executor, SessionPlacement } from '../executors/executor';
import { mcpUrlOf } from './session-starter';
import type { RuntimeReport } from './session-view';

function unreachable(mcpUrl: string | null, reachable: boolean, error: string): RuntimeReport {
  return {
    tools: null,
    connectionCount: null,
    launchConfig: null,
    mcpUrl,
    agentctl: { reachable, error },
    agent: null,
  };
}

/** Asks agentctl what the session can discover now and how its agent runs; unreachable is reported, not thrown. */
export async function runtimeReport(
  deps: { executor: Executor; agentctls?: AgentctlDirectory; agentctl: AgentctlConnector },
  session: SessionPlacement,
): Promise<RuntimeReport> {
  const sessionId = session.id;
  // Never started: asked of the default agentctl, which does not hold it either.
  const endpoint = session.agentctlAddress === null ? deps.executor.current() : directoryOf(deps).endpointFor(session);
  if (endpoint === undefined) return unreachable(null, false, 'agentctl is not running');
  const mcpUrl = mcpUrlOf(endpoint, sessionId);
  try {
    const state = await deps.agentctl.clientFor(endpoint).getSession(sessionId);
    return {
      tools: [...state.toolNames].sort(),
      connectionCount: state.connectionCount,
      launchConfig: state.config,
      mcpUrl,
      agentctl: { reachable: true },
      agent: state.agent,
    };
  } catch (error) {
    const reachable = isAppError(error) && error.code === 'not_found';
    return unreachable(mcpUrl, reachable, error instanceof Error ? error.message : String(error));
  }
}
