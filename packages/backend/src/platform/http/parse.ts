import type { z } from 'zod';
import { AppError, refusedTextIn } from '@kandev/protocol';

export interface Issue {
  path: string;
  message: string;
}

export function issuesOf(error: z.ZodError): Issue[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
}

/** Parses untrusted input (body, params, query) or throws `invalid_argument` with every issue. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  const first = issues[0];
  const summary = first === undefined ? '' : `: ${first.path === '' ? '' : `${first.path}: `}${first.message}`;
  throw new AppError('invalid_argument', `invalid ${what}${summary}`, { issues });
}

/**
 * Why a string anywhere in `value` (keys included) is refused: NUL (U+0000), which PostgreSQL's text
 * cannot store, or a lone UTF-16 surrogate, which has no UTF-8 form (SQLite would store invalid bytes
 * where PostgreSQL refuses). No field of this API has a use for either, so both are refused at the
 * boundary on either database (same answer everywhere). Undefined when the text is fine.
 */
export const refusedText = (value: unknown): string | undefined => refusedTextIn(value);
