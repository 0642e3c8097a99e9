// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { ProviderUpdateResult as _kandev_agentctl_v1_ProviderUpdateResult, ProviderUpdateResult__Output as _kandev_agentctl_v1_ProviderUpdateResult__Output } from '../../../kandev/agentctl/v1/ProviderUpdateResult';

export interface ProviderUpdateResults {
  'results'?: (_kandev_agentctl_v1_ProviderUpdateResult)[];
}

export interface ProviderUpdateResults__Output {
  'results': (_kandev_agentctl_v1_ProviderUpdateResult__Output)[];
}
