import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppError } from '@kandev/protocol';
import { bearerToken } from './api-token-rules';
import type { ApiTokenService } from './api-token-service';

/**
 * Every /api request needs `Authorization: Bearer <token>`; anything else is a 401 that says where a
 * token is (a file path or a variable name, never a token). /healthz and /readyz are not under /api.
 */
export function createAuthMiddleware(tokens: ApiTokenService): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const token = bearerToken(req.get('authorization'));
    const refuse = (why: string) =>
      new AppError(
        'unauthenticated',
        `${why}: send "Authorization: Bearer <token>" with the token in ${tokens.location}`,
      );
    if (token === undefined) {
      next(refuse('missing API token'));
      return;
    }
    tokens.authenticate(token).then(
      (ok) => next(ok ? undefined : refuse('invalid or revoked API token')),
      (error: unknown) => next(error),
    );
  };
}
