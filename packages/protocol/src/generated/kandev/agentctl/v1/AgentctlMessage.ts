// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { AttachAccepted as _kandev_agentctl_v1_AttachAccepted, AttachAccepted__Output as _kandev_agentctl_v1_AttachAccepted__Output } from '../../../kandev/agentctl/v1/AttachAccepted';
import type { ToolCallRequest as _kandev_agentctl_v1_ToolCallRequest, ToolCallRequest__Output as _kandev_agentctl_v1_ToolCallRequest__Output } from '../../../kandev/agentctl/v1/ToolCallRequest';
import type { SessionEvent as _kandev_agentctl_v1_SessionEvent, SessionEvent__Output as _kandev_agentctl_v1_SessionEvent__Output } from '../../../kandev/agentctl/v1/SessionEvent';
import type { PermissionRequest as _kandev_agentctl_v1_PermissionRequest, PermissionRequest__Output as _kandev_agentctl_v1_PermissionRequest__Output } from '../../../kandev/agentctl/v1/PermissionRequest';

export interface AgentctlMessage {
  'accepted'?: (_kandev_agentctl_v1_AttachAccepted | null);
  'tool_call'?: (_kandev_agentctl_v1_ToolCallRequest | null);
  'session_event'?: (_kandev_agentctl_v1_SessionEvent | null);
  'permission_request'?: (_kandev_agentctl_v1_PermissionRequest | null);
  'kind'?: "accepted"|"tool_call"|"session_event"|"permission_request";
}

export interface AgentctlMessage__Output {
  'accepted'?: (_kandev_agentctl_v1_AttachAccepted__Output | null);
  'tool_call'?: (_kandev_agentctl_v1_ToolCallRequest__Output | null);
  'session_event'?: (_kandev_agentctl_v1_SessionEvent__Output | null);
  'permission_request'?: (_kandev_agentctl_v1_PermissionRequest__Output | null);
  'kind'?: "accepted"|"tool_call"|"session_event"|"permission_request";
}
