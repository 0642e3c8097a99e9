// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface ToolCallNotice {
  'prompt_id'?: (string);
  'tool_call_id'?: (string);
  'title'?: (string);
  'status'?: (string);
  'input_json'?: (string);
  'output_text'?: (string);
}

export interface ToolCallNotice__Output {
  'prompt_id': (string);
  'tool_call_id': (string);
  'title': (string);
  'status': (string);
  'input_json': (string);
  'output_text': (string);
}
