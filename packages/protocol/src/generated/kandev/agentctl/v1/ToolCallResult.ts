// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { ToolOutput as _kandev_agentctl_v1_ToolOutput, ToolOutput__Output as _kandev_agentctl_v1_ToolOutput__Output } from '../../../kandev/agentctl/v1/ToolOutput';
import type { ToolError as _kandev_agentctl_v1_ToolError, ToolError__Output as _kandev_agentctl_v1_ToolError__Output } from '../../../kandev/agentctl/v1/ToolError';

export interface ToolCallResult {
  'call_id'?: (string);
  'output'?: (_kandev_agentctl_v1_ToolOutput | null);
  'error'?: (_kandev_agentctl_v1_ToolError | null);
  'outcome'?: "output"|"error";
}

export interface ToolCallResult__Output {
  'call_id': (string);
  'output'?: (_kandev_agentctl_v1_ToolOutput__Output | null);
  'error'?: (_kandev_agentctl_v1_ToolError__Output | null);
  'outcome'?: "output"|"error";
}
