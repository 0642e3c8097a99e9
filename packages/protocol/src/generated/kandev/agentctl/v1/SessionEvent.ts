// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { AgentStarted as _kandev_agentctl_v1_AgentStarted, AgentStarted__Output as _kandev_agentctl_v1_AgentStarted__Output } from '../../../kandev/agentctl/v1/AgentStarted';
import type { AgentExited as _kandev_agentctl_v1_AgentExited, AgentExited__Output as _kandev_agentctl_v1_AgentExited__Output } from '../../../kandev/agentctl/v1/AgentExited';
import type { TurnStarted as _kandev_agentctl_v1_TurnStarted, TurnStarted__Output as _kandev_agentctl_v1_TurnStarted__Output } from '../../../kandev/agentctl/v1/TurnStarted';
import type { TurnEnded as _kandev_agentctl_v1_TurnEnded, TurnEnded__Output as _kandev_agentctl_v1_TurnEnded__Output } from '../../../kandev/agentctl/v1/TurnEnded';
import type { AgentMessage as _kandev_agentctl_v1_AgentMessage, AgentMessage__Output as _kandev_agentctl_v1_AgentMessage__Output } from '../../../kandev/agentctl/v1/AgentMessage';
import type { ToolCallNotice as _kandev_agentctl_v1_ToolCallNotice, ToolCallNotice__Output as _kandev_agentctl_v1_ToolCallNotice__Output } from '../../../kandev/agentctl/v1/ToolCallNotice';
import type { PlanUpdate as _kandev_agentctl_v1_PlanUpdate, PlanUpdate__Output as _kandev_agentctl_v1_PlanUpdate__Output } from '../../../kandev/agentctl/v1/PlanUpdate';
import type { AgentNotice as _kandev_agentctl_v1_AgentNotice, AgentNotice__Output as _kandev_agentctl_v1_AgentNotice__Output } from '../../../kandev/agentctl/v1/AgentNotice';
import type { Long } from '@grpc/proto-loader';

export interface SessionEvent {
  'session_id'?: (string);
  'seq'?: (number | string | Long);
  'occurred_at'?: (string);
  'agent_started'?: (_kandev_agentctl_v1_AgentStarted | null);
  'agent_exited'?: (_kandev_agentctl_v1_AgentExited | null);
  'turn_started'?: (_kandev_agentctl_v1_TurnStarted | null);
  'turn_ended'?: (_kandev_agentctl_v1_TurnEnded | null);
  'agent_message'?: (_kandev_agentctl_v1_AgentMessage | null);
  'tool_call'?: (_kandev_agentctl_v1_ToolCallNotice | null);
  'plan'?: (_kandev_agentctl_v1_PlanUpdate | null);
  'agent_notice'?: (_kandev_agentctl_v1_AgentNotice | null);
  'kind'?: "agent_started"|"agent_exited"|"turn_started"|"turn_ended"|"agent_message"|"tool_call"|"plan"|"agent_notice";
}

export interface SessionEvent__Output {
  'session_id': (string);
  'seq': (string);
  'occurred_at': (string);
  'agent_started'?: (_kandev_agentctl_v1_AgentStarted__Output | null);
  'agent_exited'?: (_kandev_agentctl_v1_AgentExited__Output | null);
  'turn_started'?: (_kandev_agentctl_v1_TurnStarted__Output | null);
  'turn_ended'?: (_kandev_agentctl_v1_TurnEnded__Output | null);
  'agent_message'?: (_kandev_agentctl_v1_AgentMessage__Output | null);
  'tool_call'?: (_kandev_agentctl_v1_ToolCallNotice__Output | null);
  'plan'?: (_kandev_agentctl_v1_PlanUpdate__Output | null);
  'agent_notice'?: (_kandev_agentctl_v1_AgentNotice__Output | null);
  'kind'?: "agent_started"|"agent_exited"|"turn_started"|"turn_ended"|"agent_message"|"tool_call"|"plan"|"agent_notice";
}
