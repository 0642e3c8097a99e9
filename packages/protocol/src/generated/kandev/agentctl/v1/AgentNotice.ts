// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentNotice {
  'code'?: (string);
  'level'?: (string);
  'message'?: (string);
}

export interface AgentNotice__Output {
  'code': (string);
  'level': (string);
  'message': (string);
}
