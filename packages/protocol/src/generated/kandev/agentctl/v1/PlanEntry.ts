// Original file: proto/kandev/agentctl/v1/agentctl.proto


export interface PlanEntry {
  'content'?: (string);
  'priority'?: (string);
  'status'?: (string);
}

export interface PlanEntry__Output {
  'content': (string);
  'priority': (string);
  'status': (string);
}
