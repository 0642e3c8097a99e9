import { isAppError } from '@kandev/protocol';
import type { AgentctlConnector } from '../executors/agentctl-client';
import { type AgentctlDirectory, directoryOf } from '../executors/agentctl-directory';
import type { Executor } from '../executors/executor';
import type { AgentSession } from './agent-session';

/** What agentctl said when asked to stop a session's runtime. */
export type RuntimeStopOutcome =
  { status: 'stopped' } | { status: 'not_running' } | { status: 'failed'; reason: string };

/** Stops a session's runtime (agent process, MCP endpoint) in the agentctl that holds it. */
export interface RuntimeSessionControl {
  stop(session: AgentSession): Promise<RuntimeStopOutcome>;
}

/**
 * StopSession on the agentctl the session was started on (one that is gone, or none, runs nothing),
 * then its executor frees what it held for the session (docker: its container), for every stop path.
 */
export class AgentctlRuntimeSessions implements RuntimeSessionControl {
  constructor(
    private readonly deps: { executor: Executor; agentctls?: AgentctlDirectory; agentctl: AgentctlConnector },
  ) {}

  async stop(session: AgentSession): Promise<RuntimeStopOutcome> {
    const outcome = await this.stopInAgentctl(session);
    try {
      await directoryOf(this.deps).release(session);
    } catch (error) {
      const reason = `executor release failed: ${error instanceof Error ? error.message : String(error)}`;
      return outcome.status === 'failed' ? outcome : { status: 'failed', reason };
    }
    return outcome;
  }

  private async stopInAgentctl(session: AgentSession): Promise<RuntimeStopOutcome> {
    const endpoint = directoryOf(this.deps).endpointFor(session);
    if (endpoint === undefined) return { status: 'not_running' };
    try {
      const stopped = await this.deps.agentctl.clientFor(endpoint).stopSession(session.id);
      return stopped ? { status: 'stopped' } : { status: 'not_running' };
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found') return { status: 'not_running' };
      return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
