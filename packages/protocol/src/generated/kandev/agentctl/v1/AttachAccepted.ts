// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface AttachAccepted {
  'agentctl_id'?: (string);
}

export interface AttachAccepted__Output {
  'agentctl_id': (string);
}
