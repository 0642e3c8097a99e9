import type { Session } from '../schemas';

// A session's agent in one line for people (`kandev sessions show`): its status and what its handshake
// set up, so an agent without its kandev tools stands out.

export function agentSummary(agent: NonNullable<Session['agent']>): string {
  const parts: string[] = [agent.status];
  if (agent.pid !== null) parts.push(`pid ${agent.pid}`);
  if (typeof agent.mode_id === 'string') parts.push(`mode ${agent.mode_id}`);
  if (agent.system_prompt_delivery !== undefined && agent.system_prompt_delivery !== 'none') {
    parts.push(`system prompt ${agent.system_prompt_delivery}`);
  }
  // Known only once the handshake is done (an older backend does not say).
  if (agent.mcp_connected === true) parts.push('MCP connected');
  if (agent.mcp_connected === false && agent.status !== 'starting' && agent.status !== 'none') {
    parts.push('MCP NOT connected (no kandev tools)');
  }
  return parts.join(', ');
}
