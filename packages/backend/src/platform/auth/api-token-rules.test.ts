import fc from 'fast-check';
import {
  API_TOKEN_PREFIX,
  bearerToken,
  displayPrefix,
  generateApiToken,
  hashApiToken,
  mintRefusal,
  sameHash,
} from './api-token-rules';
import { type Principal, ROLES, roleAtLeast, scopeWithin } from '../access/principal';

const tokenText = fc.stringMatching(/^[A-Za-z0-9_-]{1,80}$/);

describe('api token rules', () => {
  test('a generated token has the prefix, 256 random bits, and differs each time', () => {
    const a = generateApiToken();
    const b = generateApiToken();
    expect(a.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(Buffer.from(a.slice(API_TOKEN_PREFIX.length), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  test('the display prefix is a short start of the token, never the token', () => {
    const token = generateApiToken();
    expect(token.startsWith(displayPrefix(token))).toBe(true);
    expect(displayPrefix(token).length).toBeLessThan(token.length / 3);
  });

  test('hashes: equal exactly when the tokens are equal; never the token itself', () => {
    fc.assert(
      fc.property(tokenText, tokenText, (a, b) => {
        expect(sameHash(hashApiToken(a), hashApiToken(b))).toBe(a === b);
        expect(hashApiToken(a)).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  test('a hash of another length is simply not the same', () => {
    expect(sameHash(hashApiToken('x'), 'abcd')).toBe(false);
  });

  test('bearer header: the token after "Bearer", case-insensitive scheme; anything else is none', () => {
    fc.assert(
      fc.property(tokenText, fc.constantFrom('Bearer', 'bearer', 'BEARER'), (token, scheme) => {
        expect(bearerToken(`${scheme} ${token}`)).toBe(token);
        expect(bearerToken(`Basic ${token}`)).toBeUndefined();
        expect(bearerToken(token)).toBeUndefined();
      }),
    );
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer ')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
  });

  test('a token mints at most its own role, within its own workspaces', () => {
    const scopeArb = fc.option(fc.subarray(['w1', 'w2', 'w3'], { minLength: 1 }), { nil: null });
    fc.assert(
      fc.property(
        fc.constantFrom(...ROLES),
        scopeArb,
        fc.constantFrom(...ROLES),
        scopeArb,
        (role, scope, wanted, into) => {
          const caller: Principal = { tokenId: 'c', name: 'c', role, workspaces: scope };
          const refusal = mintRefusal(caller, wanted, into);
          expect(refusal === undefined).toBe(roleAtLeast(role, wanted) && scopeWithin(into, scope));
        },
      ),
    );
    const operator: Principal = { tokenId: 'o', name: 'o', role: 'operator', workspaces: ['w1'] };
    expect(mintRefusal(operator, 'admin', ['w1'])).toBe(
      "this token's role operator cannot mint an admin token (needs admin)",
    );
    expect(mintRefusal(operator, 'viewer', ['w1', 'w2'])).toBe("w2: not in this token's workspaces");
    expect(mintRefusal(operator, 'viewer', null)).toBe("every workspace: not in this token's workspaces");
  });
});
