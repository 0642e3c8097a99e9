// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentStarted {
  'pid'?: (number);
  'acp_session_id'?: (string);
  'loaded'?: (boolean);
  'mode_id'?: (string);
  'system_prompt_delivery'?: (string);
  'mcp_connected'?: (boolean);
}

export interface AgentStarted__Output {
  'pid': (number);
  'acp_session_id': (string);
  'loaded': (boolean);
  'mode_id': (string);
  'system_prompt_delivery': (string);
  'mcp_connected': (boolean);
}
