// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { ProvidersHeld as _kandev_agentctl_v1_ProvidersHeld, ProvidersHeld__Output as _kandev_agentctl_v1_ProvidersHeld__Output } from '../../../kandev/agentctl/v1/ProvidersHeld';
import type { UpdateFailure as _kandev_agentctl_v1_UpdateFailure, UpdateFailure__Output as _kandev_agentctl_v1_UpdateFailure__Output } from '../../../kandev/agentctl/v1/UpdateFailure';

export interface ProviderUpdateResult {
  'session_id'?: (string);
  'held'?: (_kandev_agentctl_v1_ProvidersHeld | null);
  'error'?: (_kandev_agentctl_v1_UpdateFailure | null);
  'outcome'?: "held"|"error";
}

export interface ProviderUpdateResult__Output {
  'session_id': (string);
  'held'?: (_kandev_agentctl_v1_ProvidersHeld__Output | null);
  'error'?: (_kandev_agentctl_v1_UpdateFailure__Output | null);
  'outcome'?: "held"|"error";
}
