// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface UpdateFailure {
  'code'?: (string);
  'message'?: (string);
}

export interface UpdateFailure__Output {
  'code': (string);
  'message': (string);
}
