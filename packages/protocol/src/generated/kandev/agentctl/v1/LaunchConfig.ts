// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { Surface as _kandev_agentctl_v1_Surface, Surface__Output as _kandev_agentctl_v1_Surface__Output } from '../../../kandev/agentctl/v1/Surface';
import type { QuestionCapability as _kandev_agentctl_v1_QuestionCapability, QuestionCapability__Output as _kandev_agentctl_v1_QuestionCapability__Output } from '../../../kandev/agentctl/v1/QuestionCapability';
import type { Provider as _kandev_agentctl_v1_Provider, Provider__Output as _kandev_agentctl_v1_Provider__Output } from '../../../kandev/agentctl/v1/Provider';
import type { AgentCommand as _kandev_agentctl_v1_AgentCommand, AgentCommand__Output as _kandev_agentctl_v1_AgentCommand__Output } from '../../../kandev/agentctl/v1/AgentCommand';
import type { Long } from '@grpc/proto-loader';

export interface LaunchConfig {
  'session_id'?: (string);
  'task_id'?: (string);
  'workspace_id'?: (string);
  'surface'?: (_kandev_agentctl_v1_Surface);
  'question_capability'?: (_kandev_agentctl_v1_QuestionCapability);
  'providers'?: (_kandev_agentctl_v1_Provider)[];
  'revision'?: (number | string | Long);
  'owns_task_title'?: (boolean);
  'mcp_token'?: (string);
  'system_prompt'?: (string);
  'agent'?: (_kandev_agentctl_v1_AgentCommand | null);
}

export interface LaunchConfig__Output {
  'session_id': (string);
  'task_id': (string);
  'workspace_id': (string);
  'surface': (_kandev_agentctl_v1_Surface__Output);
  'question_capability': (_kandev_agentctl_v1_QuestionCapability__Output);
  'providers': (_kandev_agentctl_v1_Provider__Output)[];
  'revision': (string);
  'owns_task_title': (boolean);
  'mcp_token': (string);
  'system_prompt': (string);
  'agent': (_kandev_agentctl_v1_AgentCommand__Output | null);
}
