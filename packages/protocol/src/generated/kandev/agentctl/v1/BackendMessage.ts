// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { AttachHello as _kandev_agentctl_v1_AttachHello, AttachHello__Output as _kandev_agentctl_v1_AttachHello__Output } from '../../../kandev/agentctl/v1/AttachHello';
import type { ToolCallResult as _kandev_agentctl_v1_ToolCallResult, ToolCallResult__Output as _kandev_agentctl_v1_ToolCallResult__Output } from '../../../kandev/agentctl/v1/ToolCallResult';
import type { ToolCallProgress as _kandev_agentctl_v1_ToolCallProgress, ToolCallProgress__Output as _kandev_agentctl_v1_ToolCallProgress__Output } from '../../../kandev/agentctl/v1/ToolCallProgress';
import type { PermissionDecision as _kandev_agentctl_v1_PermissionDecision, PermissionDecision__Output as _kandev_agentctl_v1_PermissionDecision__Output } from '../../../kandev/agentctl/v1/PermissionDecision';

export interface BackendMessage {
  'hello'?: (_kandev_agentctl_v1_AttachHello | null);
  'tool_result'?: (_kandev_agentctl_v1_ToolCallResult | null);
  'tool_progress'?: (_kandev_agentctl_v1_ToolCallProgress | null);
  'permission_decision'?: (_kandev_agentctl_v1_PermissionDecision | null);
  'kind'?: "hello"|"tool_result"|"tool_progress"|"permission_decision";
}

export interface BackendMessage__Output {
  'hello'?: (_kandev_agentctl_v1_AttachHello__Output | null);
  'tool_result'?: (_kandev_agentctl_v1_ToolCallResult__Output | null);
  'tool_progress'?: (_kandev_agentctl_v1_ToolCallProgress__Output | null);
  'permission_decision'?: (_kandev_agentctl_v1_PermissionDecision__Output | null);
  'kind'?: "hello"|"tool_result"|"tool_progress"|"permission_decision";
}
