// Original file: proto/kandev/agentctl/v1/agentctl.proto

export const QuestionCapability = {
  QUESTION_CAPABILITY_UNSPECIFIED: 'QUESTION_CAPABILITY_UNSPECIFIED',
  QUESTION_CAPABILITY_USER: 'QUESTION_CAPABILITY_USER',
  QUESTION_CAPABILITY_PARENT: 'QUESTION_CAPABILITY_PARENT',
  QUESTION_CAPABILITY_NONE: 'QUESTION_CAPABILITY_NONE',
} as const;

export type QuestionCapability =
  | 'QUESTION_CAPABILITY_UNSPECIFIED'
  | 0
  | 'QUESTION_CAPABILITY_USER'
  | 1
  | 'QUESTION_CAPABILITY_PARENT'
  | 2
  | 'QUESTION_CAPABILITY_NONE'
  | 3

export type QuestionCapability__Output = typeof QuestionCapability[keyof typeof QuestionCapability]
