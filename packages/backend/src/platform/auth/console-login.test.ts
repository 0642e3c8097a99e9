import { isSameOrigin } from './auth-middleware';
import { LOGIN_LINK_TTL_MS, LoginLinks } from './console-login';

describe('one-time sign-in codes', () => {
  let now = Date.parse('2026-12-01T10:00:00Z');
  const links = () => new LoginLinks(() => new Date(now));

  test('a code is redeemed once, for the token that asked for it', () => {
    const store = links();
    const { code, expiresAt } = store.issue('kdv_token');
    expect(code).toMatch(/^[\w-]{32}$/);
    expect(expiresAt.getTime() - now).toBe(LOGIN_LINK_TTL_MS);
    expect(store.redeem('unknown')).toBeUndefined();
    expect(store.redeem(code)).toBe('kdv_token');
    expect(store.redeem(code)).toBeUndefined();
  });

  test('an expired code is refused, and gone', () => {
    const store = links();
    const { code } = store.issue('kdv_token');
    now += LOGIN_LINK_TTL_MS;
    expect(store.redeem(code)).toBeUndefined();
  });

  test('codes are distinct and bounded in number (oldest dropped)', () => {
    const store = links();
    const codes = Array.from({ length: 70 }, (_, i) => store.issue(`kdv_${i}`).code);
    expect(new Set(codes).size).toBe(70);
    expect(store.redeem(codes[0] ?? '')).toBeUndefined();
    expect(store.redeem(codes[69] ?? '')).toBe('kdv_69');
  });
});

describe('same origin for cookie-authenticated changes', () => {
  test.each([
    ['http://127.0.0.1:7420', '127.0.0.1:7420', true],
    ['https://kandev.example', 'kandev.example', true],
    ['http://localhost:7420', 'localhost:7420', true],
    ['http://localhost:7420', '127.0.0.1:7420', false],
    ['http://127.0.0.1:3000', '127.0.0.1:7420', false],
    ['null', '127.0.0.1:7420', false],
    ['file:///x', '127.0.0.1:7420', false],
  ])('Origin %s, Host %s: %s', (origin, host, expected) => {
    expect(isSameOrigin(origin, host)).toBe(expected);
  });

  test('no Origin or no Host is not same-origin', () => {
    expect(isSameOrigin(undefined, '127.0.0.1:7420')).toBe(false);
    expect(isSameOrigin('http://127.0.0.1:7420', undefined)).toBe(false);
  });
});
