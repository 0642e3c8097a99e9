// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { ProviderUpdate as _kandev_agentctl_v1_ProviderUpdate, ProviderUpdate__Output as _kandev_agentctl_v1_ProviderUpdate__Output } from '../../../kandev/agentctl/v1/ProviderUpdate';

export interface ProviderUpdateBatch {
  'updates'?: (_kandev_agentctl_v1_ProviderUpdate)[];
}

export interface ProviderUpdateBatch__Output {
  'updates': (_kandev_agentctl_v1_ProviderUpdate__Output)[];
}
