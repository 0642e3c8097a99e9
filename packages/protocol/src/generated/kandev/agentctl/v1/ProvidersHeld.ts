// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { UpdateOutcome as _kandev_agentctl_v1_UpdateOutcome, UpdateOutcome__Output as _kandev_agentctl_v1_UpdateOutcome__Output } from '../../../kandev/agentctl/v1/UpdateOutcome';
import type { Provider as _kandev_agentctl_v1_Provider, Provider__Output as _kandev_agentctl_v1_Provider__Output } from '../../../kandev/agentctl/v1/Provider';
import type { Long } from '@grpc/proto-loader';

export interface ProvidersHeld {
  'outcome'?: (_kandev_agentctl_v1_UpdateOutcome);
  'tools_changed'?: (boolean);
  'revision'?: (number | string | Long);
  'providers'?: (_kandev_agentctl_v1_Provider)[];
  'tool_names'?: (string)[];
}

export interface ProvidersHeld__Output {
  'outcome': (_kandev_agentctl_v1_UpdateOutcome__Output);
  'tools_changed': (boolean);
  'revision': (string);
  'providers': (_kandev_agentctl_v1_Provider__Output)[];
  'tool_names': (string)[];
}
