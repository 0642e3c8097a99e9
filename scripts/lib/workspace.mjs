// Install (when missing or older than the lockfile) and build: what `npm start`, `npm test`, the demo
// and the image build all do first. pnpm is the version pinned in package.json's `packageManager`, run
// through npx, so a machine needs only Node 20 and npm.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
/** The root's node_modules/.bin first, so jest, tsc and friends resolve without a global install. */
export const env = { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };

/** Runs a command in the repository root; exits with its status when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error !== undefined) {
    console.error(`${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

export function ensureInstalled() {
  const marker = join(root, 'node_modules/.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.error(`installing dependencies with pnpm ${pnpmVersion} (the first time compiles better-sqlite3, ~1 min)`);
  run('npx', ['--yes', `pnpm@${pnpmVersion}`, 'install', '--frozen-lockfile']);
}

/** Install when needed, then the incremental TypeScript build (quiet when up to date). */
export function ensureBuilt() {
  ensureInstalled();
  run('npm', ['run', '--silent', 'build']);
}
