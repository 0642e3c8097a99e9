// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const AgentStatus = {
  AGENT_STATUS_UNSPECIFIED: 'AGENT_STATUS_UNSPECIFIED',
  AGENT_STATUS_NONE: 'AGENT_STATUS_NONE',
  AGENT_STATUS_STARTING: 'AGENT_STATUS_STARTING',
  AGENT_STATUS_READY: 'AGENT_STATUS_READY',
  AGENT_STATUS_PROMPTING: 'AGENT_STATUS_PROMPTING',
  AGENT_STATUS_EXITED: 'AGENT_STATUS_EXITED',
} as const;

export type AgentStatus =
  | 'AGENT_STATUS_UNSPECIFIED'
  | 0
  | 'AGENT_STATUS_NONE'
  | 1
  | 'AGENT_STATUS_STARTING'
  | 2
  | 'AGENT_STATUS_READY'
  | 3
  | 'AGENT_STATUS_PROMPTING'
  | 4
  | 'AGENT_STATUS_EXITED'
  | 5

export type AgentStatus__Output = typeof AgentStatus[keyof typeof AgentStatus]
