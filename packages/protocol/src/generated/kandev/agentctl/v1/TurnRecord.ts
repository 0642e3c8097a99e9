// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { TurnStatus as _kandev_agentctl_v1_TurnStatus, TurnStatus__Output as _kandev_agentctl_v1_TurnStatus__Output } from '../../../kandev/agentctl/v1/TurnStatus';

export interface TurnRecord {
  'prompt_id'?: (string);
  'status'?: (_kandev_agentctl_v1_TurnStatus);
  'stop_reason'?: (string);
  'error'?: (string);
  'started_at'?: (string);
  'ended_at'?: (string);
}

export interface TurnRecord__Output {
  'prompt_id': (string);
  'status': (_kandev_agentctl_v1_TurnStatus__Output);
  'stop_reason': (string);
  'error': (string);
  'started_at': (string);
  'ended_at': (string);
}
