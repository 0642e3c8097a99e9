#!/usr/bin/env node
// Builds the web console (packages/console: type-check, then Vite) when its sources changed since the
// last build, or when it was never built (a fresh clone), then checks the first page's size: the
// gzipped HTML, scripts and styles it loads must stay under FIRST_PAGE_LIMIT. Quiet when up to date,
// like the incremental TypeScript build `npm run build` runs before it. Each text file of the build gets
// a brotli (`.br`) and a gzip (`.gz`) copy next to it, which the backend serves by Accept-Encoding.
//   node scripts/build-console.mjs [--force]
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = join(root, 'packages/console');
const dist = join(pkg, 'dist');
/** Written last: its mtime is when the build that is in dist/ finished. */
const marker = join(dist, '.built');
export const FIRST_PAGE_LIMIT = 60 * 1024;

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const sources = [
  ...files(join(pkg, 'src')),
  ...files(join(pkg, 'public')),
  ...['index.html', 'vite.config.mjs', 'package.json', 'tsconfig.json'].map((f) => join(pkg, f)),
  join(root, 'pnpm-lock.yaml'),
  // This script: what it writes (the precompressed copies) is part of the build.
  fileURLToPath(import.meta.url),
  // Bundled from the protocol package: the event types the console listens for.
  join(root, 'packages/protocol/src/event-types.ts'),
  // Bundled from source: the REST client and its generated types.
  ...files(join(root, 'packages/rest-client/src')),
];
const builtAt = existsSync(marker) ? statSync(marker).mtimeMs : -1;
const stale = process.argv.includes('--force') || sources.some((file) => statSync(file).mtimeMs > builtAt);

function run(command, args) {
  const result = spawnSync(command, args, { cwd: pkg, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`console build: ${relative(root, command)} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

if (stale) {
  run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json']);
  run(join(pkg, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn']);
  precompress();
}

/** Compressed once here at their best levels, so the backend spends no CPU on it per request. */
function precompress() {
  for (const file of files(dist).filter((f) => /\.(html|js|css|svg|json)$/.test(f))) {
    const bytes = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(bytes, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
      }),
    );
  }
}

// The first page is index.html plus every script and stylesheet it names (one entry chunk: no lazy
// chunks), measured as a browser receives them from a gzipping proxy.
const html = readFileSync(join(dist, 'index.html'));
const assets = [...html.toString('utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
const sizes = [html, ...assets.map((asset) => readFileSync(join(dist, asset)))].map(
  (b) => gzipSync(b, { level: 9 }).length,
);
const total = sizes.reduce((a, b) => a + b, 0);
if (assets.length === 0 || total > FIRST_PAGE_LIMIT) {
  console.error(
    `console build: the first page is ${(total / 1024).toFixed(1)} KB gzipped (${assets.length} assets); the limit is ${FIRST_PAGE_LIMIT / 1024} KB`,
  );
  process.exit(1);
}
if (stale) {
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  console.error(
    `console built: first page ${(total / 1024).toFixed(1)} KB gzipped (limit ${FIRST_PAGE_LIMIT / 1024} KB)`,
  );
}
