// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { PermissionPolicy as _kandev_agentctl_v1_PermissionPolicy, PermissionPolicy__Output as _kandev_agentctl_v1_PermissionPolicy__Output } from '../../../kandev/agentctl/v1/PermissionPolicy';

export interface AgentCommand {
  'command'?: (string);
  'args'?: (string)[];
  'env'?: ({[key: string]: string});
  'cwd'?: (string);
  'supports_mcp'?: (boolean);
  'resume_acp_session_id'?: (string);
  'permission_policy'?: (_kandev_agentctl_v1_PermissionPolicy);
}

export interface AgentCommand__Output {
  'command': (string);
  'args': (string)[];
  'env': ({[key: string]: string});
  'cwd': (string);
  'supports_mcp': (boolean);
  'resume_acp_session_id': (string);
  'permission_policy': (_kandev_agentctl_v1_PermissionPolicy__Output);
}
