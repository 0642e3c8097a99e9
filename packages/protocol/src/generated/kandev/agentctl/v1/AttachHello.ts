// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AttachHello {
  'backend_id'?: (string);
}

export interface AttachHello__Output {
  'backend_id': (string);
}
