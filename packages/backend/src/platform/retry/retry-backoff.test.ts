import fc from 'fast-check';
import { type BackoffPolicy, canRetry, retryDelayMs } from './retry-backoff';

const POLICY: BackoffPolicy = { baseMs: 500, maxDelayMs: 30_000, maxAttempts: 8 };

describe('retryDelayMs', () => {
  test.each([
    [0, 0, 250],
    [0, 1, 500],
    [1, 0, 500],
    [3, 1, 4_000],
    [5, 0.5, 12_000],
    [6, 1, 30_000],
    [20, 0, 15_000],
    [20, 1, 30_000],
  ])('attempt %i, random %d -> %i ms', (attempt, random, expected) => {
    expect(retryDelayMs(attempt, POLICY, () => random)).toBe(expected);
  });

  test('between half and all of min(max, base * 2^attempt); never above the cap', () => {
    const policyArb = fc.record({
      baseMs: fc.integer({ min: 1, max: 3_600_000 }),
      maxDelayMs: fc.integer({ min: 1, max: 60_000 }),
      maxAttempts: fc.nat(50),
    });
    fc.assert(
      fc.property(policyArb, fc.nat(60), fc.double({ min: 0, max: 1, noNaN: true }), (policy, attempt, random) => {
        const ceiling = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** attempt);
        const delay = retryDelayMs(attempt, policy, () => random);
        expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling / 2));
        expect(delay).toBeLessThanOrEqual(Math.ceil(ceiling));
      }),
    );
  });
});

describe('canRetry', () => {
  test('bounded by maxAttempts; 0 turns retries off', () => {
    expect([0, 7, 8].map((attempt) => canRetry(attempt, POLICY))).toEqual([true, true, false]);
    expect(canRetry(0, { ...POLICY, maxAttempts: 0 })).toBe(false);
  });
});
