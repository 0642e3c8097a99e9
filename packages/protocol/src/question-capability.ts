import { z } from 'zod';
import { AppError } from './errors';
import type { QuestionCapability__Output as WireQuestionCapability } from './generated/kandev/agentctl/v1/QuestionCapability';

/** One value per session, never a list: which question tool (if any) the session gets. */
export const QUESTION_CAPABILITIES = ['user', 'parent', 'none'] as const;
export type QuestionCapability = (typeof QUESTION_CAPABILITIES)[number];
export const QuestionCapabilitySchema = z.enum(QUESTION_CAPABILITIES);

const FROM_WIRE = {
  QUESTION_CAPABILITY_UNSPECIFIED: undefined,
  QUESTION_CAPABILITY_USER: 'user',
  QUESTION_CAPABILITY_PARENT: 'parent',
  QUESTION_CAPABILITY_NONE: 'none',
} as const satisfies Record<WireQuestionCapability, QuestionCapability | undefined>;

const TO_WIRE = {
  user: 'QUESTION_CAPABILITY_USER',
  parent: 'QUESTION_CAPABILITY_PARENT',
  none: 'QUESTION_CAPABILITY_NONE',
} as const satisfies Record<QuestionCapability, WireQuestionCapability>;

export function questionCapabilityToWire(capability: QuestionCapability): WireQuestionCapability {
  return TO_WIRE[capability];
}

/** UNSPECIFIED or an unknown value is rejected: a session never guesses its question owner. */
export function questionCapabilityFromWire(value: unknown): QuestionCapability {
  const capability =
    typeof value === 'string' && value in FROM_WIRE ? FROM_WIRE[value as WireQuestionCapability] : undefined;
  if (capability === undefined) {
    throw new AppError('invalid_argument', `question_capability must be USER, PARENT or NONE, got ${String(value)}`);
  }
  return capability;
}
