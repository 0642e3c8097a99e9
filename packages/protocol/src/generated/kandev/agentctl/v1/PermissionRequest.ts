// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { PermissionOption as _kandev_agentctl_v1_PermissionOption, PermissionOption__Output as _kandev_agentctl_v1_PermissionOption__Output } from '../../../kandev/agentctl/v1/PermissionOption';

export interface PermissionRequest {
  'request_id'?: (string);
  'session_id'?: (string);
  'task_id'?: (string);
  'tool_call_id'?: (string);
  'title'?: (string);
  'kind'?: (string);
  'options'?: (_kandev_agentctl_v1_PermissionOption)[];
}

export interface PermissionRequest__Output {
  'request_id': (string);
  'session_id': (string);
  'task_id': (string);
  'tool_call_id': (string);
  'title': (string);
  'kind': (string);
  'options': (_kandev_agentctl_v1_PermissionOption__Output)[];
}
