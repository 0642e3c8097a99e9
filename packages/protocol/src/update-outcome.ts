import { z } from 'zod';
import type { UpdateOutcome__Output as WireUpdateOutcome } from './generated/kandev/agentctl/v1/UpdateOutcome';

/** What a provider update did (StreamProviderUpdates): revisions only move forward, see decideRevision. */
export const UPDATE_OUTCOMES = ['applied', 'unchanged', 'stale'] as const;
export type UpdateOutcome = (typeof UPDATE_OUTCOMES)[number];
export const UpdateOutcomeSchema = z.enum(UPDATE_OUTCOMES);

const FROM_WIRE = {
  UPDATE_OUTCOME_UNSPECIFIED: undefined,
  UPDATE_OUTCOME_APPLIED: 'applied',
  UPDATE_OUTCOME_UNCHANGED: 'unchanged',
  UPDATE_OUTCOME_STALE: 'stale',
} as const satisfies Record<WireUpdateOutcome, UpdateOutcome | undefined>;

const TO_WIRE = {
  applied: 'UPDATE_OUTCOME_APPLIED',
  unchanged: 'UPDATE_OUTCOME_UNCHANGED',
  stale: 'UPDATE_OUTCOME_STALE',
} as const satisfies Record<UpdateOutcome, WireUpdateOutcome>;

export function updateOutcomeToWire(outcome: UpdateOutcome): WireUpdateOutcome {
  return TO_WIRE[outcome];
}

export function updateOutcomeFromWire(value: unknown): UpdateOutcome | undefined {
  return typeof value === 'string' && value in FROM_WIRE ? FROM_WIRE[value as WireUpdateOutcome] : undefined;
}
