// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface StopSessionResponse {
  'stopped'?: (boolean);
}

export interface StopSessionResponse__Output {
  'stopped': (boolean);
}
