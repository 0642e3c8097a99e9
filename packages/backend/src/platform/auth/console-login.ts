import { createHash, randomBytes } from 'node:crypto';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { AppError } from '@kandev/protocol';
import { parseInput } from '../http/parse';
import type { ApiTokenService } from './api-token-service';
import { authenticatedToken } from './auth-middleware';
import { clearedSessionCookie, sessionCookie } from './session-cookie';

/** A sign-in link is good for this long, once. */
export const LOGIN_LINK_TTL_MS = 5 * 60_000;
/** Outstanding links kept at most (oldest dropped): issuing is token-gated, this only bounds memory. */
const MAX_OUTSTANDING = 64;

const hashCode = (code: string): string => createHash('sha256').update(code, 'utf8').digest('hex');

/**
 * One-time sign-in codes, in memory only (a restart voids them): a code names the API token of whoever
 * asked for it, so opening the link signs the console in as that token without the token ever being
 * in a URL. Only the code's hash is kept as the key.
 */
export class LoginLinks {
  private readonly codes = new Map<string, { token: string; expiresAt: number }>();

  constructor(private readonly clock: () => Date) {}

  issue(token: string): { code: string; expiresAt: Date } {
    const now = this.clock().getTime();
    for (const [key, entry] of this.codes) if (entry.expiresAt <= now) this.codes.delete(key);
    while (this.codes.size >= MAX_OUTSTANDING) {
      const oldest = this.codes.keys().next().value;
      if (oldest === undefined) break;
      this.codes.delete(oldest);
    }
    const code = randomBytes(24).toString('base64url');
    const expiresAt = now + LOGIN_LINK_TTL_MS;
    this.codes.set(hashCode(code), { token, expiresAt });
    return { code, expiresAt: new Date(expiresAt) };
  }

  /** The token a code stands for, once; undefined for an unknown, used or expired code. */
  redeem(code: string): string | undefined {
    const key = hashCode(code);
    const entry = this.codes.get(key);
    this.codes.delete(key);
    return entry !== undefined && entry.expiresAt > this.clock().getTime() ? entry.token : undefined;
  }
}

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
    const token = parsed.success ? links.redeem(parsed.data.code) : undefined;
    if (token === undefined || !(await tokens.authenticate(token))) {
      return void res.redirect(303, '/#/signin-link-invalid');
    }
    res.setHeader('Set-Cookie', sessionCookie(token, servedOverHttps(req)));
    res.redirect(303, '/');
  });
  router.post('/api/console/login-links', (req: Request, res: Response) => {
    const token = authenticatedToken(res);
    if (token === undefined) throw new AppError('unauthenticated', 'no API token on this request');
    const { code, expiresAt } = links.issue(token);
    const origin = `${servedOverHttps(req) ? 'https' : 'http'}://${req.get('host') ?? 'localhost'}`;
    res.status(201).json({ url: `${origin}/login?code=${code}`, expires_at: expiresAt.toISOString() });
  });
  return router;
}
