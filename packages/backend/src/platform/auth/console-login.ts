import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseInput } from '../http/parse';
import type { ApiTokenService } from './api-token-service';
import { authenticatedToken } from './auth-middleware';
import type { LoginLinks } from './login-links';
import { clearedSessionCookie, sessionCookie } from './session-cookie';

export const LoginBodySchema = z.object({ token: z.string().min(1).max(1024) }).strict();
export const CodeQuerySchema = z.object({ code: z.string().min(1).max(128) });

/** https as the browser saw it (directly or through a TLS-terminating proxy): then the cookie is Secure. */
const servedOverHttps = (req: Request): boolean => req.secure || req.get('x-forwarded-proto') === 'https';

/**
 * The console's sign-in: `POST /login {token}` sets the HttpOnly cookie, `POST /logout` clears it,
 * `GET /login?code=` trades a one-time code for it, and `POST /api/console/login-links` (behind the
 * token like every /api route) issues such a code. /login and /logout are public: they are how a
 * browser gets a credential in the first place.
 */
export function createConsoleLoginRoutes(tokens: ApiTokenService, links: LoginLinks): Router {
  const router = Router();
  router.post('/login', async (req: Request, res: Response) => {
    const { token } = parseInput(LoginBodySchema, req.body, 'login');
    if (!(await tokens.authenticate(token))) {
      throw new AppError('unauthenticated', 'invalid or revoked API token');
    }
    res.setHeader('Set-Cookie', sessionCookie(token, servedOverHttps(req)));
    res.status(204).end();
  });
  router.post('/logout', (req: Request, res: Response) => {
    res.setHeader('Set-Cookie', clearedSessionCookie(servedOverHttps(req)));
    res.status(204).end();
  });
  router.get('/login', async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const parsed = CodeQuerySchema.safeParse(req.query);
    const token = parsed.success ? await links.redeem(parsed.data.code) : undefined;
    if (token === undefined || !(await tokens.authenticate(token))) {
      return void res.redirect(303, '/#/signin-link-invalid');
    }
    res.setHeader('Set-Cookie', sessionCookie(token, servedOverHttps(req)));
    res.redirect(303, '/');
  });
  router.post('/api/console/login-links', async (req: Request, res: Response) => {
    const token = authenticatedToken(res);
    if (token === undefined) throw new AppError('unauthenticated', 'no API token on this request');
    const { code, expiresAt } = await links.issue(token);
    const origin = `${servedOverHttps(req) ? 'https' : 'http'}://${req.get('host') ?? 'localhost'}`;
    res.status(201).json({ url: `${origin}/login?code=${code}`, expires_at: expiresAt.toISOString() });
  });
  return router;
}
