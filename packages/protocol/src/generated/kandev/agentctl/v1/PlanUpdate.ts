// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { PlanEntry as _kandev_agentctl_v1_PlanEntry, PlanEntry__Output as _kandev_agentctl_v1_PlanEntry__Output } from '../../../kandev/agentctl/v1/PlanEntry';

export interface PlanUpdate {
  'prompt_id'?: (string);
  'entries'?: (_kandev_agentctl_v1_PlanEntry)[];
}

export interface PlanUpdate__Output {
  'prompt_id': (string);
  'entries': (_kandev_agentctl_v1_PlanEntry__Output)[];
}
