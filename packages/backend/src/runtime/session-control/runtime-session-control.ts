import { isAppError } from '@kandev/protocol';
import type { Agentctls } from '../agentctl/agentctls';
import type { AgentSession } from '../sessions/agent-session';

/** What agentctl said when asked to stop a session's runtime. */
/** `forwarded`: another replica's own local agentctl holds it; that replica stops it once told (Agentctls.forward). */
export type RuntimeStopOutcome =
  | { status: 'stopped' }
  | { status: 'not_running' }
  | { status: 'failed'; reason: string }
  | { status: 'forwarded'; replica: string };

/** Stops a session's runtime (agent process, MCP endpoint) in the agentctl that holds it. */
export interface RuntimeSessionControl {
  stop(session: AgentSession): Promise<RuntimeStopOutcome>;
}

/**
 * StopSession on the agentctl the session was started on (one that is gone, or none, runs nothing),
 * then its executor frees what it held for the session (docker: its container), for every stop path.
 */
export class AgentctlRuntimeSessions implements RuntimeSessionControl {
  constructor(private readonly deps: { agentctls: Agentctls }) {}

  async stop(session: AgentSession): Promise<RuntimeStopOutcome> {
    const outcome = await this.stopInAgentctl(session);
    try {
      await this.deps.agentctls.release(session);
    } catch (error) {
      const reason = `executor release failed: ${error instanceof Error ? error.message : String(error)}`;
      return outcome.status === 'failed' ? outcome : { status: 'failed', reason };
    }
    return outcome;
  }

  private async stopInAgentctl(session: AgentSession): Promise<RuntimeStopOutcome> {
    const replica = this.deps.agentctls.servedElsewhere(session);
    if (replica !== undefined) return { status: 'forwarded', replica };
    const agentctl = this.deps.agentctls.find(session);
    if (agentctl === undefined) return { status: 'not_running' };
    try {
      const stopped = await agentctl.client.stopSession(session.id);
      return stopped ? { status: 'stopped' } : { status: 'not_running' };
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found') return { status: 'not_running' };
      return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
    }
  }
}
