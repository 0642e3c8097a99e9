import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/**
 * The console's pages may load only our own scripts, styles and images and talk only to us: no inline
 * script or style, no framing, no plugins, no foreign form targets.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Frame-Options', 'DENY');
  next();
}

/**
 * The built console (packages/console/dist: index.html and hashed assets) at `/`, public like any
 * login page: every byte of data it shows comes from /api, behind the token. Hashed assets are cached
 * for good; index.html is revalidated so a new build is picked up. The first of `dirs` holding an
 * index.html is served; undefined when none does (the console was not built): `/` then answers 404.
 */
export function consoleStatic(dirs: readonly string[]): RequestHandler | undefined {
  const dir = dirs.find((candidate) => existsSync(join(candidate, 'index.html')));
  if (dir === undefined) return undefined;
  const files = express.static(dir, {
    index: 'index.html',
    redirect: false,
    setHeaders: (res, path) => {
      res.setHeader('Cache-Control', path.endsWith('index.html') ? 'no-cache' : 'public, max-age=31536000, immutable');
    },
  });
  const router = express.Router();
  router.use(securityHeaders, files);
  return router;
}
