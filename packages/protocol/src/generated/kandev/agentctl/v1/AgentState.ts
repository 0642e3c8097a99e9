// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { AgentStatus as _kandev_agentctl_v1_AgentStatus, AgentStatus__Output as _kandev_agentctl_v1_AgentStatus__Output } from '../../../kandev/agentctl/v1/AgentStatus';
import type { TurnRecord as _kandev_agentctl_v1_TurnRecord, TurnRecord__Output as _kandev_agentctl_v1_TurnRecord__Output } from '../../../kandev/agentctl/v1/TurnRecord';

export interface AgentState {
  'status'?: (_kandev_agentctl_v1_AgentStatus);
  'pid'?: (number);
  'acp_session_id'?: (string);
  'loaded'?: (boolean);
  'current_prompt_id'?: (string);
  'exit_reason'?: (string);
  'turns'?: (_kandev_agentctl_v1_TurnRecord)[];
  'mode_id'?: (string);
  'system_prompt_delivery'?: (string);
  'mcp_connected'?: (boolean);
}

export interface AgentState__Output {
  'status': (_kandev_agentctl_v1_AgentStatus__Output);
  'pid': (number);
  'acp_session_id': (string);
  'loaded': (boolean);
  'current_prompt_id': (string);
  'exit_reason': (string);
  'turns': (_kandev_agentctl_v1_TurnRecord__Output)[];
  'mode_id': (string);
  'system_prompt_delivery': (string);
  'mcp_connected': (boolean);
}
