import fc from 'fast-check';
import { ConnectionLimiter } from './connection-limits';

describe('ConnectionLimiter', () => {
  test('refuses past the per-session cap, then past the total, with a reason naming the limit', () => {
    const limiter = new ConnectionLimiter({ perSession: 2, total: 3 });
    const a1 = limiter.acquire('a');
    limiter.acquire('a');
    expect(limiter.acquire('a')).toEqual({ refused: expect.stringMatching(/session already has 2 .*\(limit 2\)/) });
    limiter.acquire('b');
    expect(limiter.acquire('c')).toEqual({ refused: expect.stringMatching(/agentctl already holds 3 .*\(limit 3\)/) });
    if ('refused' in a1) throw new Error('expected a slot');
    a1.release();
    a1.release(); // a second release of the same slot frees nothing more
    expect(limiter.held()).toBe(2);
    expect('release' in limiter.acquire('c')).toBe(true);
    expect('refused' in limiter.acquire('d')).toBe(true);
  });

  test('property: any sequence of acquires and releases stays within both caps and counts exactly', () => {
    const step = fc.record({ session: fc.constantFrom('a', 'b', 'c'), release: fc.boolean(), twice: fc.boolean() });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(step),
        (per, total, steps) => {
          const limiter = new ConnectionLimiter({ perSession: per, total });
          const held: { session: string; release: () => void }[] = [];
          for (const s of steps) {
            if (s.release && held.length > 0) {
              const slot = held.shift();
              slot?.release();
              if (s.twice) slot?.release();
              continue;
            }
            const slot = limiter.acquire(s.session);
            const mine = held.filter((h) => h.session === s.session).length;
            expect('release' in slot).toBe(mine < per && held.length < total);
            if ('release' in slot) held.push({ session: s.session, release: () => slot.release() });
          }
          expect(limiter.held()).toBe(held.length);
        },
      ),
      { seed: 14, numRuns: 200 },
    );
  });
});
