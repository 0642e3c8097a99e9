// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentCommand {
  'command'?: (string);
  'args'?: (string)[];
  'env'?: ({[key: string]: string});
  'cwd'?: (string);
  'supports_mcp'?: (boolean);
  'resume_acp_session_id'?: (string);
}

export interface AgentCommand__Output {
  'command': (string);
  'args': (string)[];
  'env': ({[key: string]: string});
  'cwd': (string);
  'supports_mcp': (boolean);
  'resume_acp_session_id': (string);
}
