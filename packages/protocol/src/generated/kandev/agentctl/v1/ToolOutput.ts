// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface ToolOutput {
  'text'?: (string);
  'structured_json'?: (string);
  'is_error'?: (boolean);
}

export interface ToolOutput__Output {
  'text': (string);
  'structured_json': (string);
  'is_error': (boolean);
}
