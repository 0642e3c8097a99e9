// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { UpdateProvidersBatchRequest as _kandev_agentctl_v1_UpdateProvidersBatchRequest, UpdateProvidersBatchRequest__Output as _kandev_agentctl_v1_UpdateProvidersBatchRequest__Output } from '../../../kandev/agentctl/v1/UpdateProvidersBatchRequest';
import type { Long } from '@grpc/proto-loader';

export interface ProviderUpdatesCall {
  'call_id'?: (number | string | Long);
  'batch'?: (_kandev_agentctl_v1_UpdateProvidersBatchRequest | null);
}

export interface ProviderUpdatesCall__Output {
  'call_id': (string);
  'batch': (_kandev_agentctl_v1_UpdateProvidersBatchRequest__Output | null);
}
