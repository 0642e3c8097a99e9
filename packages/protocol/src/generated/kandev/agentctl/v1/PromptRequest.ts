// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface PromptRequest {
  'session_id'?: (string);
  'prompt_id'?: (string);
  'text'?: (string);
}

export interface PromptRequest__Output {
  'session_id': (string);
  'prompt_id': (string);
  'text': (string);
}
