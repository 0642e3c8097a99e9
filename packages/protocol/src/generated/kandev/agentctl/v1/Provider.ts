// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const Provider = {
  PROVIDER_UNSPECIFIED: 'PROVIDER_UNSPECIFIED',
  PROVIDER_GITHUB: 'PROVIDER_GITHUB',
  PROVIDER_GITLAB: 'PROVIDER_GITLAB',
} as const;

export type Provider =
  | 'PROVIDER_UNSPECIFIED'
  | 0
  | 'PROVIDER_GITHUB'
  | 1
  | 'PROVIDER_GITLAB'
  | 2

export type Provider__Output = typeof Provider[keyof typeof Provider]
