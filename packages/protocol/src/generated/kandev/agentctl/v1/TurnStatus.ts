// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const TurnStatus = {
  TURN_STATUS_UNSPECIFIED: 'TURN_STATUS_UNSPECIFIED',
  TURN_STATUS_RUNNING: 'TURN_STATUS_RUNNING',
  TURN_STATUS_COMPLETED: 'TURN_STATUS_COMPLETED',
  TURN_STATUS_FAILED: 'TURN_STATUS_FAILED',
} as const;

export type TurnStatus =
  | 'TURN_STATUS_UNSPECIFIED'
  | 0
  | 'TURN_STATUS_RUNNING'
  | 1
  | 'TURN_STATUS_COMPLETED'
  | 2
  | 'TURN_STATUS_FAILED'
  | 3

export type TurnStatus__Output = typeof TurnStatus[keyof typeof TurnStatus]
