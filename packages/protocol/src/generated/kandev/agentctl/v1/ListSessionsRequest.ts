// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface ListSessionsRequest {
  'page_size'?: (number);
  'after_session_id'?: (string);
}

export interface ListSessionsRequest__Output {
  'page_size': (number);
  'after_session_id': (string);
}
