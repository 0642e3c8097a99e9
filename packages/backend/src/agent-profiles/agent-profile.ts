// Pure: an agent profile (what runs a task's agent) and how the configuration tools show it.

export interface AgentProfile {
  id: string;
  name: string;
  command: string;
  args: string[];
  /** False when the agent cannot receive the MCP tool set (autopilot tasks need it). */
  supportsMcp: boolean;
  createdAt: string;
}

/** Command line arguments are left out: they may carry settings an agent need not see. */
export interface AgentProfileView {
  id: string;
  name: string;
  command: string;
  supports_mcp: boolean;
}

export function toAgentProfileView(profile: AgentProfile): AgentProfileView {
  return { id: profile.id, name: profile.name, command: profile.command, supports_mcp: profile.supportsMcp };
}
