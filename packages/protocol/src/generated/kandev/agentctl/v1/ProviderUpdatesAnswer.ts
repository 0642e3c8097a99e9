// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { ProviderUpdateResults as _kandev_agentctl_v1_ProviderUpdateResults, ProviderUpdateResults__Output as _kandev_agentctl_v1_ProviderUpdateResults__Output } from '../../../kandev/agentctl/v1/ProviderUpdateResults';
import type { UpdateFailure as _kandev_agentctl_v1_UpdateFailure, UpdateFailure__Output as _kandev_agentctl_v1_UpdateFailure__Output } from '../../../kandev/agentctl/v1/UpdateFailure';
import type { Long } from '@grpc/proto-loader';

export interface ProviderUpdatesAnswer {
  'call_id'?: (number | string | Long);
  'batch'?: (_kandev_agentctl_v1_ProviderUpdateResults | null);
  'error'?: (_kandev_agentctl_v1_UpdateFailure | null);
  'answer'?: "batch"|"error";
}

export interface ProviderUpdatesAnswer__Output {
  'call_id': (string);
  'batch'?: (_kandev_agentctl_v1_ProviderUpdateResults__Output | null);
  'error'?: (_kandev_agentctl_v1_UpdateFailure__Output | null);
  'answer'?: "batch"|"error";
}
