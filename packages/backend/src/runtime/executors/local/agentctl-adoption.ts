import { AGENTCTL_SERVICE_NAME, checkHealth } from '@kandev/protocol';
import { AgentctlClient } from '../../agentctl/agentctl-client';
import { isPidAlive } from './agentctl-handle';
import type { AgentctlState } from './agentctl-state-file';

/**
 * Whether a recorded agentctl is still the one we started: its pid is alive, it answers health as
 * SERVING at the recorded address, and it accepts the recorded control token. A reused pid or a
 * different daemon on the port fails one of these, and is never adopted.
 */
export async function canAdopt(state: AgentctlState, timeoutMs: number): Promise<boolean> {
  if (!isPidAlive(state.pid)) return false;
  const status = await checkHealth(state.grpcAddress, AGENTCTL_SERVICE_NAME, { timeoutMs });
  if (status !== 'SERVING') return false;
  const client = new AgentctlClient(
    { grpcAddress: state.grpcAddress, mcpBaseUrl: state.mcpBaseUrl, controlToken: state.controlToken },
    timeoutMs,
  );
  try {
    await client.listSessions();
    return true;
  } catch {
    return false;
  } finally {
    client.close();
  }
}
