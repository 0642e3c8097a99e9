// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const PermissionPolicy = {
  PERMISSION_POLICY_UNSPECIFIED: 'PERMISSION_POLICY_UNSPECIFIED',
  PERMISSION_POLICY_ASK: 'PERMISSION_POLICY_ASK',
  PERMISSION_POLICY_ALLOW_ALL: 'PERMISSION_POLICY_ALLOW_ALL',
  PERMISSION_POLICY_DENY_ALL: 'PERMISSION_POLICY_DENY_ALL',
} as const;

export type PermissionPolicy =
  | 'PERMISSION_POLICY_UNSPECIFIED'
  | 0
  | 'PERMISSION_POLICY_ASK'
  | 1
  | 'PERMISSION_POLICY_ALLOW_ALL'
  | 2
  | 'PERMISSION_POLICY_DENY_ALL'
  | 3

export type PermissionPolicy__Output = typeof PermissionPolicy[keyof typeof PermissionPolicy]
