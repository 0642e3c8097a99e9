import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { decodeCursor, encodeCursor, pageOf } from './page-cursor';

const Position = z.object({ seq: z.number().int() }).strict();

describe('page cursors', () => {
  test('a cursor round-trips and is opaque (no raw JSON in it)', () => {
    const cursor = encodeCursor({ seq: 42 });
    expect(cursor).not.toMatch(/[{}"]/);
    expect(decodeCursor(Position, cursor)).toEqual({ seq: 42 });
  });

  test.each([
    ['garbage', 'not a cursor!'],
    ['JSON of another shape', encodeCursor({ created_at: 'x', id: 'y' })],
    ['base64 of non-JSON', Buffer.from('seq=1').toString('base64url')],
  ])('%s is invalid_argument', (_name, cursor) => {
    let caught: unknown;
    try {
      decodeCursor(Position, cursor);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('invalid_argument');
  });

  test('pageOf: the extra row only signals a next page', () => {
    const rows = [{ seq: 1 }, { seq: 2 }, { seq: 3 }];
    const first = pageOf(rows, 2, (row) => ({ seq: row.seq }));
    expect(first.items).toEqual([{ seq: 1 }, { seq: 2 }]);
    expect(decodeCursor(Position, first.nextCursor ?? '')).toEqual({ seq: 2 });
    expect(pageOf(rows.slice(0, 2), 2, (row) => ({ seq: row.seq }))).toEqual({
      items: rows.slice(0, 2),
      nextCursor: null,
    });
    expect(pageOf([], 2, (row: { seq: number }) => ({ seq: row.seq }))).toEqual({ items: [], nextCursor: null });
  });
});
