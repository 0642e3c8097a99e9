// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { Provider as _kandev_agentctl_v1_Provider, Provider__Output as _kandev_agentctl_v1_Provider__Output } from '../../../kandev/agentctl/v1/Provider';
import type { Long } from '@grpc/proto-loader';

export interface ProviderUpdate {
  'session_id'?: (string);
  'providers'?: (_kandev_agentctl_v1_Provider)[];
  'revision'?: (number | string | Long);
}

export interface ProviderUpdate__Output {
  'session_id': (string);
  'providers': (_kandev_agentctl_v1_Provider__Output)[];
  'revision': (string);
}
