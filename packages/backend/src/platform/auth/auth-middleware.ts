import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@kandev/protocol';
import { canonicalOrigin, parseAuthority } from '../http/request-access';
import { bearerToken } from './api-token-rules';
import type { ApiTokenService } from './api-token-service';
import { setPrincipal } from '../access/principal';
import { SESSION_COOKIE, cookieValue } from './session-cookie';

/** Methods that change nothing: a cookie alone may authenticate them without an Origin. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The token the request was authenticated with (set by the auth middleware; never logged). */
export function authenticatedToken(res: Response): string | undefined {
  const value: unknown = res.locals.apiToken;
  return typeof value === 'string' ? value : undefined;
}

/**
 * True when the request's Origin is this very backend (the Host it was asked by). A cookie rides along
 * with any same-site request, and "same site" ignores the port: another app on localhost could send
 * one. So a cookie-authenticated change needs the browser's word (Origin) that our own page sent it.
 */
export function isSameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined || host === undefined) return false;
  const authority = parseAuthority(host);
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    authority !== undefined && (url.protocol === 'http:' || url.protocol === 'https:') && url.host === authority.host
  );
}

/**
 * Every /api request needs `Authorization: Bearer <token>` or the console's sign-in cookie (whose
 * state-changing requests must also come from our own origin or a listed one); anything else is a 401 (which never names where the
 * token is: whoever asks is not yet trusted). /healthz and /readyz are not under /api.
 */
export function createAuthMiddleware(
  tokens: ApiTokenService,
  /** Canonical origins the operator listed (KANDEV_ALLOWED_ORIGINS): trusted like our own. */
  allowedOrigins: readonly string[] = [],
): RequestHandler {
  const trusted = (origin: string | undefined, host: string | undefined): boolean =>
    isSameOrigin(origin, host) || (origin !== undefined && allowedOrigins.includes(canonicalOrigin(origin) ?? ''));
  return (req: Request, res: Response, next: NextFunction): void => {
    const bearer = bearerToken(req.get('authorization'));
    const cookie = bearer === undefined ? cookieValue(req.get('cookie'), SESSION_COOKIE) : undefined;
    const token = bearer ?? cookie;
    const refuse = (why: string) =>
      new AppError(
        'unauthenticated',
        `${why}: send "Authorization: Bearer <token>" (the backend's ready line says where its token is)`,
      );
    if (token === undefined) {
      next(refuse('missing API token'));
      return;
    }
    if (cookie !== undefined && !SAFE_METHODS.has(req.method) && !trusted(req.get('origin'), req.get('host'))) {
      next(
        new AppError(
          'permission_denied',
          'a change authenticated by the console cookie must come from the console itself (same-origin Origin header)',
        ),
      );
      return;
    }
    tokens.identify(token).then(
      (principal) => {
        if (principal !== undefined) {
          res.locals.apiToken = token;
          setPrincipal(res, principal);
        }
        next(principal !== undefined ? undefined : refuse('invalid or revoked API token'));
      },
      (error: unknown) => next(error),
    );
  };
}
