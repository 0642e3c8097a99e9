// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { SessionState as _kandev_agentctl_v1_SessionState, SessionState__Output as _kandev_agentctl_v1_SessionState__Output } from '../../../kandev/agentctl/v1/SessionState';

export interface ListSessionsResponse {
  'sessions'?: (_kandev_agentctl_v1_SessionState)[];
  'more'?: (boolean);
}

export interface ListSessionsResponse__Output {
  'sessions': (_kandev_agentctl_v1_SessionState__Output)[];
  'more': (boolean);
}
