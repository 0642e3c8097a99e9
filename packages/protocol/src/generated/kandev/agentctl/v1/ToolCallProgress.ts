// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface ToolCallProgress {
  'call_id'?: (string);
  'message'?: (string);
}

export interface ToolCallProgress__Output {
  'call_id': (string);
  'message': (string);
}
