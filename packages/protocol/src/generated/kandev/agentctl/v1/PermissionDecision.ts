// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface PermissionDecision {
  'request_id'?: (string);
  'option_id'?: (string);
}

export interface PermissionDecision__Output {
  'request_id': (string);
  'option_id': (string);
}
