import type { z } from 'zod';
import { AppError } from '@kandev/protocol';

// Pure: keyset pagination. A cursor is the position of the last row of a page, as opaque base64url
// JSON; the next page starts strictly after it, so pages never repeat or skip a row that existed.

export const DEFAULT_PAGE_LIMIT = 50;

export interface Page<T> {
  items: T[];
  /** null on the last page. */
  nextCursor: string | null;
}

export function encodeCursor(position: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
}

/** A cursor is untrusted input: anything this module did not encode is `invalid_argument`. */
export function decodeCursor<S extends z.ZodType>(schema: S, cursor: string): z.output<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    raw = undefined;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new AppError('invalid_argument', 'cursor is not a next_cursor this call returned; omit it for page 1', {
      field: 'cursor',
    });
  }
  return parsed.data;
}

/** Rows fetched with `limit + 1`: the extra row only tells whether another page exists. */
export function pageOf<T>(rows: readonly T[], limit: number, positionOf: (last: T) => Record<string, string | number>) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = rows.length > limit && last !== undefined ? encodeCursor(positionOf(last)) : null;
  return { items, nextCursor } satisfies Page<T>;
}
