// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface GetSessionRequest {
  'session_id'?: (string);
}

export interface GetSessionRequest__Output {
  'session_id': (string);
}
