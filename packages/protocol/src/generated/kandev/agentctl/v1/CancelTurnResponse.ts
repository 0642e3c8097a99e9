// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface CancelTurnResponse {
  'cancelled'?: (boolean);
  'prompt_id'?: (string);
}

export interface CancelTurnResponse__Output {
  'cancelled': (boolean);
  'prompt_id': (string);
}
