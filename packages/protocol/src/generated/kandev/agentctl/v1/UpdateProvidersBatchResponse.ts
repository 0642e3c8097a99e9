// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { UpdateProvidersBatchResult as _kandev_agentctl_v1_UpdateProvidersBatchResult, UpdateProvidersBatchResult__Output as _kandev_agentctl_v1_UpdateProvidersBatchResult__Output } from '../../../kandev/agentctl/v1/UpdateProvidersBatchResult';

export interface UpdateProvidersBatchResponse {
  'results'?: (_kandev_agentctl_v1_UpdateProvidersBatchResult)[];
}

export interface UpdateProvidersBatchResponse__Output {
  'results': (_kandev_agentctl_v1_UpdateProvidersBatchResult__Output)[];
}
