// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { UpdateProvidersRequest as _kandev_agentctl_v1_UpdateProvidersRequest, UpdateProvidersRequest__Output as _kandev_agentctl_v1_UpdateProvidersRequest__Output } from '../../../kandev/agentctl/v1/UpdateProvidersRequest';

export interface UpdateProvidersBatchRequest {
  'updates'?: (_kandev_agentctl_v1_UpdateProvidersRequest)[];
}

export interface UpdateProvidersBatchRequest__Output {
  'updates': (_kandev_agentctl_v1_UpdateProvidersRequest__Output)[];
}
