// The console's sign-in cookie. It carries the operator's API token itself (HttpOnly: page scripts
// never see it; SameSite=Strict: no cross-site request carries it), so revoking the token signs the
// console out too and a backend restart keeps it signed in. ADR: web console.

export const SESSION_COOKIE = 'kandev_session';

/** The value of cookie `name` in a Cookie header, or undefined (a malformed header is simply no cookie). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (value === '') return undefined;
    try {
      return decodeURIComponent(value);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Set-Cookie for a signed-in console; `secure` when the page was served over https. */
export function sessionCookie(token: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the sign-in cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
}
