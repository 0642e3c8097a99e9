// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const UpdateOutcome = {
  UPDATE_OUTCOME_UNSPECIFIED: 'UPDATE_OUTCOME_UNSPECIFIED',
  UPDATE_OUTCOME_APPLIED: 'UPDATE_OUTCOME_APPLIED',
  UPDATE_OUTCOME_UNCHANGED: 'UPDATE_OUTCOME_UNCHANGED',
  UPDATE_OUTCOME_STALE: 'UPDATE_OUTCOME_STALE',
} as const;

export type UpdateOutcome =
  | 'UPDATE_OUTCOME_UNSPECIFIED'
  | 0
  | 'UPDATE_OUTCOME_APPLIED'
  | 1
  | 'UPDATE_OUTCOME_UNCHANGED'
  | 2
  | 'UPDATE_OUTCOME_STALE'
  | 3

export type UpdateOutcome__Output = typeof UpdateOutcome[keyof typeof UpdateOutcome]
