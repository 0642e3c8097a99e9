// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AgentMessage {
  'prompt_id'?: (string);
  'text'?: (string);
  'segment'?: (number);
}

export interface AgentMessage__Output {
  'prompt_id': (string);
  'text': (string);
  'segment': (number);
}
