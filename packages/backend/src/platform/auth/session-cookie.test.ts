import fc from 'fast-check';
import { clearedSessionCookie, cookieValue, SESSION_COOKIE, sessionCookie } from './session-cookie';

describe('the console sign-in cookie', () => {
  test('Set-Cookie is HttpOnly, SameSite=Strict, Path=/, Secure only over https', () => {
    expect(sessionCookie('kdv_abc', false)).toBe('kandev_session=kdv_abc; Path=/; HttpOnly; SameSite=Strict');
    expect(sessionCookie('kdv_abc', true)).toBe('kandev_session=kdv_abc; Path=/; HttpOnly; SameSite=Strict; Secure');
    expect(clearedSessionCookie(false)).toBe('kandev_session=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0');
  });

  test('a token survives the round trip through Set-Cookie and a Cookie header among others', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 80 }), fc.boolean(), (token, secure) => {
        const pair = sessionCookie(token, secure).split(';', 1)[0] ?? '';
        expect(cookieValue(`a=1; ${pair}; b=2`, SESSION_COOKIE)).toBe(token);
      }),
    );
  });

  test('absent, empty, malformed or look-alike cookies are no cookie', () => {
    expect(cookieValue(undefined, SESSION_COOKIE)).toBeUndefined();
    expect(cookieValue('', SESSION_COOKIE)).toBeUndefined();
    expect(cookieValue('kandev_session=', SESSION_COOKIE)).toBeUndefined();
    expect(cookieValue('kandev_session=%E0%A4%A', SESSION_COOKIE)).toBeUndefined();
    expect(cookieValue('xkandev_session=t; kandev_sessionx=u', SESSION_COOKIE)).toBeUndefined();
  });
});
