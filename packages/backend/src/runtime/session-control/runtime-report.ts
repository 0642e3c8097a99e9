import { isAppError } from '@kandev/protocol';
import type { Agentctls } from '../agentctl/agentctls';
import type { SessionPlacement } from '../agentctl/executor';
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
export async function runtimeReport(agentctls: Agentctls, session: SessionPlacement): Promise<RuntimeReport> {
  const sessionId = session.id;
  // Never started: no agentctl holds it, none is asked.
  if (session.agentctlAddress === null) return unreachable(null, false, 'the session has not started on an agentctl');
  const elsewhere = agentctls.servedElsewhere(session);
  if (elsewhere !== undefined) {
    return unreachable(null, false, `the session runs on the local agentctl of replica ${elsewhere}; ask that replica`);
  }
  const agentctl = agentctls.find(session);
  if (agentctl === undefined) return unreachable(null, false, 'agentctl is not running');
  const mcpUrl = mcpUrlOf(agentctl.endpoint, sessionId);
  try {
    const state = await agentctl.client.getSession(sessionId);
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
