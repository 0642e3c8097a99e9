// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface PermissionOption {
  'option_id'?: (string);
  'name'?: (string);
  'kind'?: (string);
}

export interface PermissionOption__Output {
  'option_id': (string);
  'name': (string);
  'kind': (string);
}
