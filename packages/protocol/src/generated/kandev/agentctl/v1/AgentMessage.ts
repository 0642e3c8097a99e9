// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentMessage {
  'prompt_id'?: (string);
  'text'?: (string);
}

export interface AgentMessage__Output {
  'prompt_id': (string);
  'text': (string);
}
