import { randomUUID } from 'node:crypto';
import { isSessionId } from './session-id';

describe('isSessionId', () => {
  test('a UUID in any case is a session id', () => {
    expect(isSessionId(randomUUID())).toBe(true);
    expect(isSessionId('5F0C2A4E-1D3B-4C6A-8E9F-7A2B1C3D4E5F')).toBe(true);
  });

  test.each(['', 'sess-1', '../../x', `${randomUUID()}x`, ` ${randomUUID()}`, 'a'.repeat(10_000)])(
    '%j is not',
    (value) => {
      expect(isSessionId(value)).toBe(false);
    },
  );
});
