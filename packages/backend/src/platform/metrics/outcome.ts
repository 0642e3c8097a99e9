import { isAppError } from '@kandev/protocol';

/** A failure as a label value: its AppError code, else `internal` (bounded: the codes are an enum). */
export function outcomeOf(err: unknown): string {
  return isAppError(err) ? err.code : 'internal';
}
