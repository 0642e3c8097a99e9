#!/usr/bin/env node
// The two quick-start commands. Needs only Node 20 and npm: pnpm (pinned in package.json's
// `packageManager`) is run through npx, dependencies are installed when missing or stale, and the
// TypeScript build is incremental.
//   npm start  -> install, build, run the backend (which starts a local agentctl)
//   npm test   -> install, build, check the generated proto types, type-check, unit + integration tests,
//                 then the container tests (or one line saying they were skipped: no container engine)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pnpmVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1];
const env = { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function ensureInstalled() {
  const marker = join(root, 'node_modules/.modules.yaml');
  const lock = join(root, 'pnpm-lock.yaml');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  console.error(`installing dependencies with pnpm ${pnpmVersion} (the first time compiles better-sqlite3, ~1 min)`);
  run('npx', ['--yes', `pnpm@${pnpmVersion}`, 'install', '--frozen-lockfile']);
}

const command = process.argv[2];
ensureInstalled();
run('npm', ['run', '--silent', 'build']);

if (command === 'start') {
  const backend = spawn(process.execPath, [join(root, 'packages/backend/dist/main.js')], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => backend.kill(signal));
  backend.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 0 : 1)));
} else if (command === 'test') {
  run('npm', ['run', '--silent', 'check:proto']);
  run('npm', ['run', '--silent', 'typecheck']);
  run('jest', ['--selectProjects', 'unit', 'integration', ...process.argv.slice(3)]);
  // Runs them when DOCKER_HOST answers; otherwise prints the one 'skipped: no container engine' line.
  run(process.execPath, [join(root, 'scripts/container-tests.mjs')]);
} else {
  console.error('usage: node scripts/run.mjs start|test [jest args]');
  process.exit(2);
}
