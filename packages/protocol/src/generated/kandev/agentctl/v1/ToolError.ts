// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface ToolError {
  'code'?: (string);
  'message'?: (string);
}

export interface ToolError__Output {
  'code': (string);
  'message': (string);
}
