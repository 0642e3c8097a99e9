// Original file: proto/kandev/agentctl/v1/agentctl.proto

import type { LaunchConfig as _kandev_agentctl_v1_LaunchConfig, LaunchConfig__Output as _kandev_agentctl_v1_LaunchConfig__Output } from '../../../kandev/agentctl/v1/LaunchConfig';

export interface RestoreSessionRequest {
  'config'?: (_kandev_agentctl_v1_LaunchConfig | null);
  'mcp_token_sha256'?: (string);
}

export interface RestoreSessionRequest__Output {
  'config': (_kandev_agentctl_v1_LaunchConfig__Output | null);
  'mcp_token_sha256': (string);
}
