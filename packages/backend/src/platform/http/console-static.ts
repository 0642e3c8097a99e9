import { existsSync, readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
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

/** The media types of what the console build emits (a precompressed copy keeps its original's type). */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The encodings the build writes next to each file (`x.js.br`, `x.js.gz`), the smallest first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;

/** The codings an Accept-Encoding header accepts (a `q=0` one refused), lower-case. */
export function acceptedEncodings(header: string | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const refused = params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    if (name.trim() !== '' && !refused) accepted.add(name.trim());
  }
  return accepted;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Serves the build's precompressed copy (brotli, else gzip) of a file when the browser accepts it,
 * by rewriting the URL to it before express.static runs. Only the copies found at start are known,
 * so no request path reaches the disk here; every answer that could differ says `Vary: Accept-Encoding`.
 */
function precompressed(dir: string): RequestHandler {
  const available = new Map<string, Set<string>>();
  for (const file of files(dir)) {
    const encoding = ENCODINGS.find((e) => file.endsWith(e.suffix));
    if (encoding === undefined) continue;
    const original = `/${relative(dir, file.slice(0, -encoding.suffix.length)).split(sep).join('/')}`;
    available.set(original, (available.get(original) ?? new Set<string>()).add(encoding.name));
  }
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = req.path === '/' ? '/index.html' : req.path;
    const encodings = available.get(path);
    const type = TYPES[extname(path)];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || encodings === undefined || type === undefined) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    const accepted = acceptedEncodings(req.get('accept-encoding'));
    const chosen = ENCODINGS.find((e) => encodings.has(e.name) && accepted.has(e.name));
    if (chosen !== undefined) {
      res.setHeader('Content-Type', type);
      res.setHeader('Content-Encoding', chosen.name);
      req.url = `${path}${chosen.suffix}`;
    }
    next();
  };
}

/**
 * The built console (packages/console/dist: index.html and hashed assets) at `/`, public like any
 * login page: every byte of data it shows comes from /api, behind the token. Hashed assets are cached
 * for good; index.html is revalidated so a new build is picked up. Precompressed copies the build
 * wrote (`.br`, `.gz`) go to browsers that accept them. The first of `dirs` holding an
 * index.html is served; undefined when none does (the console was not built): `/` then answers 404.
 */
export function consoleStatic(dirs: readonly string[]): RequestHandler | undefined {
  const dir = dirs.find((candidate) => existsSync(join(candidate, 'index.html')));
  if (dir === undefined) return undefined;
  const files = express.static(dir, {
    index: 'index.html',
    redirect: false,
    setHeaders: (res, path) => {
      res.setHeader(
        'Cache-Control',
        /index\.html(\.br|\.gz)?$/.test(path) ? 'no-cache' : 'public, max-age=31536000, immutable',
      );
    },
  });
  const router = express.Router();
  router.use(securityHeaders, precompressed(dir), files);
  return router;
}
