// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { UpdateOutcome as _kandev_agentctl_v1_UpdateOutcome, UpdateOutcome__Output as _kandev_agentctl_v1_UpdateOutcome__Output } from '../../../kandev/agentctl/v1/UpdateOutcome';
import type { SessionState as _kandev_agentctl_v1_SessionState, SessionState__Output as _kandev_agentctl_v1_SessionState__Output } from '../../../kandev/agentctl/v1/SessionState';

export interface UpdateProvidersResponse {
  'outcome'?: (_kandev_agentctl_v1_UpdateOutcome);
  'tools_changed'?: (boolean);
  'session'?: (_kandev_agentctl_v1_SessionState | null);
}

export interface UpdateProvidersResponse__Output {
  'outcome': (_kandev_agentctl_v1_UpdateOutcome__Output);
  'tools_changed': (boolean);
  'session': (_kandev_agentctl_v1_SessionState__Output | null);
}
