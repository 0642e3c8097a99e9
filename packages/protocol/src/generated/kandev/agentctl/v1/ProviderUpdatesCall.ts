// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { ProviderUpdateBatch as _kandev_agentctl_v1_ProviderUpdateBatch, ProviderUpdateBatch__Output as _kandev_agentctl_v1_ProviderUpdateBatch__Output } from '../../../kandev/agentctl/v1/ProviderUpdateBatch';
import type { Long } from '@grpc/proto-loader';

export interface ProviderUpdatesCall {
  'call_id'?: (number | string | Long);
  'batch'?: (_kandev_agentctl_v1_ProviderUpdateBatch | null);
}

export interface ProviderUpdatesCall__Output {
  'call_id': (string);
  'batch': (_kandev_agentctl_v1_ProviderUpdateBatch__Output | null);
}
