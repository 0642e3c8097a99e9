// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface StopSessionRequest {
  'session_id'?: (string);
}

export interface StopSessionRequest__Output {
  'session_id': (string);
}
