// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { UpdateProvidersBatchResponse as _kandev_agentctl_v1_UpdateProvidersBatchResponse, UpdateProvidersBatchResponse__Output as _kandev_agentctl_v1_UpdateProvidersBatchResponse__Output } from '../../../kandev/agentctl/v1/UpdateProvidersBatchResponse';
import type { UpdateFailure as _kandev_agentctl_v1_UpdateFailure, UpdateFailure__Output as _kandev_agentctl_v1_UpdateFailure__Output } from '../../../kandev/agentctl/v1/UpdateFailure';
import type { Long } from '@grpc/proto-loader';

export interface ProviderUpdatesAnswer {
  'call_id'?: (number | string | Long);
  'batch'?: (_kandev_agentctl_v1_UpdateProvidersBatchResponse | null);
  'error'?: (_kandev_agentctl_v1_UpdateFailure | null);
  'answer'?: "batch"|"error";
}

export interface ProviderUpdatesAnswer__Output {
  'call_id': (string);
  'batch'?: (_kandev_agentctl_v1_UpdateProvidersBatchResponse__Output | null);
  'error'?: (_kandev_agentctl_v1_UpdateFailure__Output | null);
  'answer'?: "batch"|"error";
}
