// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { TurnRecord as _kandev_agentctl_v1_TurnRecord, TurnRecord__Output as _kandev_agentctl_v1_TurnRecord__Output } from '../../../kandev/agentctl/v1/TurnRecord';

export interface PromptResponse {
  'turn'?: (_kandev_agentctl_v1_TurnRecord | null);
  'duplicate'?: (boolean);
}

export interface PromptResponse__Output {
  'turn': (_kandev_agentctl_v1_TurnRecord__Output | null);
  'duplicate': (boolean);
}
