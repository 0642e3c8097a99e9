import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { type Principal, type Role, roleAtLeast, scopeWithin } from '../access/principal';

/** Every operator token starts with this, so a leaked one is recognisable (and greppable) as ours. */
export const API_TOKEN_PREFIX = 'kdv_';
/** How much of a token the list shows: enough to tell tokens apart, far too little to use one. */
export const DISPLAY_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;

/**
 * The shortest token an operator may choose (KANDEV_API_TOKEN, KANDEV_API_TOKEN_FILE): guesses are
 * rate limited, but the length is what makes guessing hopeless. Generated tokens have 47 characters.
 */
export const OPERATOR_TOKEN_MIN_LENGTH = 32;

/** A new token: the prefix and 32 random bytes (base64url). */
export function generateApiToken(random: (size: number) => Buffer = randomBytes): string {
  return `${API_TOKEN_PREFIX}${random(32).toString('base64url')}`;
}

/** The only form a token is stored in (hex sha256): tokens are random, so no salt or slow hash is needed. */
export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function displayPrefix(token: string): string {
  return token.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** Constant-time equality of two hex hashes (equal lengths by construction; a mismatch is simply false). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match?.[1];
}

/**
 * Why `caller` may not mint a token with this role and scope, or undefined when it may: never a role
 * above its own, never a workspace outside its own scope (an unlimited token from a limited one included).
 */
export function mintRefusal(caller: Principal, role: Role, workspaces: readonly string[] | null): string | undefined {
  if (!roleAtLeast(caller.role, role)) {
    return `this token's role ${caller.role} cannot mint ${role === 'admin' ? 'an' : 'a'} ${role} token (needs ${role})`;
  }
  if (!scopeWithin(workspaces, caller.workspaces)) {
    const outside =
      workspaces === null ? 'every workspace' : workspaces.filter((id) => !caller.workspaces?.includes(id)).join(', ');
    return `${outside}: not in this token's workspaces`;
  }
  return undefined;
}
