import { TokenCheckCache } from './token-check-cache';

describe('TokenCheckCache', () => {
  function setup(ttlMs = 1_000) {
    let now = 0;
    const cache = new TokenCheckCache(() => now, ttlMs);
    return { cache, at: (ms: number) => (now = ms) };
  }

  test('a token found active is trusted until TTL after its read was sent, not after', () => {
    const { cache, at } = setup();
    expect(cache.trusts('h')).toBe(false);
    const check = cache.begin('h');
    at(400); // the answer came 400 ms later: the trust still counts from the read
    check.keep('t1');
    at(999);
    expect(cache.trusts('h')).toBe(true);
    at(1_000);
    expect(cache.trusts('h')).toBe(false);
  });

  test('forget drops every entry of that token and only those', () => {
    const { cache } = setup();
    cache.begin('a').keep('t1');
    cache.begin('b').keep('t2');
    cache.forget('t1');
    expect(cache.trusts('a')).toBe(false);
    expect(cache.trusts('b')).toBe(true);
  });

  test('a check whose read began before a revocation is not kept', () => {
    const { cache } = setup();
    const inFlight = cache.begin('a');
    cache.forget('t1');
    inFlight.keep('t1');
    expect(cache.trusts('a')).toBe(false);
    cache.begin('a').keep('t1'); // a read begun after it found the token active again: kept
    expect(cache.trusts('a')).toBe(true);
  });

  test('the number of entries is bounded: the oldest goes first', () => {
    const { cache } = setup();
    for (let i = 0; i < 1_001; i++) cache.begin(`h${i}`).keep(`t${i}`);
    expect(cache.trusts('h0')).toBe(false);
    expect(cache.trusts('h1')).toBe(true);
    expect(cache.trusts('h1000')).toBe(true);
  });
});
