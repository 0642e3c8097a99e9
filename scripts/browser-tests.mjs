#!/usr/bin/env node
// The browser tests (jest project `browser`: the web console in Debian's Chromium, driven by
// playwright-core against the real built backend). Without Chromium (KANDEV_CHROMIUM when set, else
// /usr/bin/chromium) this prints ONE line saying they were skipped and exits 0, except in CI
// (CI=true), where .ci/run installs Chromium and a missing one is a failure.
//   node scripts/browser-tests.mjs [jest args]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withWorkers } from './lib/test-workers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const configured = process.env.KANDEV_CHROMIUM ?? '';
const candidates = configured !== '' ? [configured] : ['/usr/bin/chromium'];
const chromium = candidates.find((path) => existsSync(path));

if (chromium === undefined) {
  const why = `no Chromium (looked for ${candidates.join(', ')}; apt-get install chromium, or set KANDEV_CHROMIUM)`;
  if (process.env.CI === 'true') {
    console.error(`browser tests: FAILED: ${why}; .ci/run installs it`);
    process.exit(1);
  }
  console.error(`skipped: browser tests: ${why}; they run in .ci/run`);
  process.exit(0);
}

const started = Date.now();
const result = spawnSync(
  join(root, 'node_modules/.bin/jest'),
  withWorkers(['--selectProjects', 'browser', ...process.argv.slice(2)], process.env, 1),
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, KANDEV_CHROMIUM: chromium },
  },
);
console.error(`browser tests: ${Math.round((Date.now() - started) / 1000)} s (screenshots in test-results/)`);
process.exit(result.status ?? 1);
