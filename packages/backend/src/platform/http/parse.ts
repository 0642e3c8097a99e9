import type { z } from 'zod';
import { AppError } from '@kandev/protocol';

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
 * Whether a string anywhere in `value` (keys included) holds NUL (U+0000). PostgreSQL's text cannot
 * store one and no field of this API has a use for it, so it is refused at the boundary on either
 * database (same answer everywhere).
 */
export function holdsNul(value: unknown): boolean {
  // Depth-first with a stack of its own: any nesting the body parser accepted is searched to the end.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        if (key.includes('\u0000')) return true;
        pending.push(child);
      }
    }
  }
  return false;
}

export const NUL_REFUSED = 'text must not contain NUL (U+0000) characters';
