// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { AttachAccepted as _kandev_agentctl_v1_AttachAccepted, AttachAccepted__Output as _kandev_agentctl_v1_AttachAccepted__Output } from '../../../kandev/agentctl/v1/AttachAccepted';
import type { ToolCallRequest as _kandev_agentctl_v1_ToolCallRequest, ToolCallRequest__Output as _kandev_agentctl_v1_ToolCallRequest__Output } from '../../../kandev/agentctl/v1/ToolCallRequest';

export interface AgentctlMessage {
  'accepted'?: (_kandev_agentctl_v1_AttachAccepted | null);
  'tool_call'?: (_kandev_agentctl_v1_ToolCallRequest | null);
  'kind'?: "accepted"|"tool_call";
}

export interface AgentctlMessage__Output {
  'accepted'?: (_kandev_agentctl_v1_AttachAccepted__Output | null);
  'tool_call'?: (_kandev_agentctl_v1_ToolCallRequest__Output | null);
  'kind'?: "accepted"|"tool_call";
}
