// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface TurnStarted {
  'prompt_id'?: (string);
}

export interface TurnStarted__Output {
  'prompt_id': (string);
}
