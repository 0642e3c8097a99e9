// Install (when missing or older than the lockfile) and build: what `npm start`, `npm test`, the demo
// and the image build all do first. pnpm is the version pinned in package.json's `packageManager`, run
// through npx, so a machine needs only Node (a line in package.json's `engines`) and npm. Everything
// runs on the Node running this script, and native modules are made to load in it (native-modules.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureNativeModules } from './native-modules.mjs';
import { headersFor } from './node-package.mjs';
import { currentNode, nodeEnv, pathWithNode } from './node-release.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
/**
 * The root's node_modules/.bin first, so jest, tsc and friends resolve without a global install, then
 * this Node (when another one comes first on PATH), so they run on it.
 */
export const env = {
  ...process.env,
  PATH: `${join(root, 'node_modules/.bin')}${delimiter}${pathWithNode(process.env.PATH ?? '', process.execPath)}`,
};

/** Runs a command in the repository root; exits with its status when it fails. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit', ...options });
  if (result.error !== undefined) {
    console.error(`${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Install when missing or stale; then the native modules load in this Node (else rebuilt for it). */
export function ensureInstalled() {
  try {
    installFor(currentNode());
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}

function installFor(node) {
  const marker = join(root, 'node_modules/.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
    console.error(`installing dependencies with pnpm ${pnpmVersion} (the first time compiles better-sqlite3, ~1 min)`);
    run('npx', ['--yes', `pnpm@${pnpmVersion}`, 'install', '--frozen-lockfile'], {
      env: nodeEnv(env, node, headersFor(node)),
    });
  }
  ensureNativeModules(
    join(root, 'packages/backend'),
    node,
    (names, buildEnv) =>
      // pnpm also replaces its store's build for this Node line, which the next fresh install reuses.
      run('npx', ['--yes', `pnpm@${pnpmVersion}`, 'rebuild', '--recursive', ...names], { env: buildEnv }),
    env,
  );
}

/** Install when needed, then the incremental TypeScript build (quiet when up to date). */
export function ensureBuilt() {
  ensureInstalled();
  run('npm', ['run', '--silent', 'build']);
}
