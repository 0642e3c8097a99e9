// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentExited {
  'exit_code'?: (number);
  'signal'?: (string);
  'reason'?: (string);
  'expected'?: (boolean);
}

export interface AgentExited__Output {
  'exit_code': (number);
  'signal': (string);
  'reason': (string);
  'expected': (boolean);
}
