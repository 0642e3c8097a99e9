// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface CancelTurnRequest {
  'session_id'?: (string);
}

export interface CancelTurnRequest__Output {
  'session_id': (string);
}
