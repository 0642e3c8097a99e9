// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { Long } from '@grpc/proto-loader';

export interface ToolCallRequest {
  'call_id'?: (string);
  'session_id'?: (string);
  'task_id'?: (string);
  'workspace_id'?: (string);
  'tool_name'?: (string);
  'arguments_json'?: (string);
  'revision'?: (number | string | Long);
}

export interface ToolCallRequest__Output {
  'call_id': (string);
  'session_id': (string);
  'task_id': (string);
  'workspace_id': (string);
  'tool_name': (string);
  'arguments_json': (string);
  'revision': (string);
}
