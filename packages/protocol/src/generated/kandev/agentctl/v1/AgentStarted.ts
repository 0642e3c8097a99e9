// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentStarted {
  'pid'?: (number);
  'acp_session_id'?: (string);
  'loaded'?: (boolean);
}

export interface AgentStarted__Output {
  'pid': (number);
  'acp_session_id': (string);
  'loaded': (boolean);
}
