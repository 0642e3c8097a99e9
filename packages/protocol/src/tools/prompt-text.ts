import { z } from 'zod';
import { AppError } from '../errors';

// The one rule for text that becomes an agent's prompt (REST prompts, MCP tools that carry a prompt,
// automation prompts, answers): a prompt that says nothing is refused at the door, because agentctl
// refuses it for good and a refused prompt must never reach the queue.

export const MAX_PROMPT_LENGTH = 100_000;

export const BLANK_TEXT_MESSAGE = 'must not be blank (it holds only whitespace)';

/**
 * Any character that is not whitespace. `\s` (what agentctl and String.prototype.trim treat as
 * whitespace, incl. U+00A0 and U+FEFF) united with Unicode's White_Space property (adds U+0085).
 */
const NOT_WHITESPACE = /[^\s\p{White_Space}]/u;

/** Empty, or nothing but whitespace of any kind. */
export function isBlankText(text: string): boolean {
  return !NOT_WHITESPACE.test(text);
}

/** Text that must say something: bounded, and not only whitespace. */
export const nonBlankText = (max: number) =>
  z
    .string()
    .min(1, 'must not be empty')
    .max(max)
    .refine((text) => !isBlankText(text), BLANK_TEXT_MESSAGE);

/** A prompt for an agent, as every door takes it. */
export const promptText = () => nonBlankText(MAX_PROMPT_LENGTH);

/** The same rule for text already inside the system (the last check before a prompt is queued). */
export function assertPromptText(text: string, what = 'prompt'): void {
  if (isBlankText(text)) throw new AppError('invalid_argument', `${what} ${BLANK_TEXT_MESSAGE}`);
  if (text.length > MAX_PROMPT_LENGTH) {
    throw new AppError('invalid_argument', `${what} is longer than ${MAX_PROMPT_LENGTH} characters`);
  }
}
