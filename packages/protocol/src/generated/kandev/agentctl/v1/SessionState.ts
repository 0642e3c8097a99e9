// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { LaunchConfig as _kandev_agentctl_v1_LaunchConfig, LaunchConfig__Output as _kandev_agentctl_v1_LaunchConfig__Output } from '../../../kandev/agentctl/v1/LaunchConfig';
import type { AgentState as _kandev_agentctl_v1_AgentState, AgentState__Output as _kandev_agentctl_v1_AgentState__Output } from '../../../kandev/agentctl/v1/AgentState';

export interface SessionState {
  'config'?: (_kandev_agentctl_v1_LaunchConfig | null);
  'tool_names'?: (string)[];
  'connection_count'?: (number);
  'mcp_path'?: (string);
  'created_at'?: (string);
  'updated_at'?: (string);
  'agent'?: (_kandev_agentctl_v1_AgentState | null);
}

export interface SessionState__Output {
  'config': (_kandev_agentctl_v1_LaunchConfig__Output | null);
  'tool_names': (string)[];
  'connection_count': (number);
  'mcp_path': (string);
  'created_at': (string);
  'updated_at': (string);
  'agent': (_kandev_agentctl_v1_AgentState__Output | null);
}
