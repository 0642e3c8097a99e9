#!/usr/bin/env node
// The container tests (jest project `containers`, test/integration/containers/: docker executor, its
// conformance run, compose).
// They need a Docker-compatible engine at DOCKER_HOST (unix:// or tcp://) and the images
// kandev/agentctl:dev + kandev/backend:dev. Without an engine this prints ONE line saying they were
// skipped and exits 0 (never silently); with one it builds the images when missing (always with
// --build, as .ci/run does) and runs the tests.
//   node scripts/container-tests.mjs [--build] [jest args]
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const IMAGES = ['kandev/agentctl:dev', 'kandev/backend:dev'];
const args = process.argv.slice(2);
const build = args.includes('--build');
const jestArgs = args.filter((arg) => arg !== '--build');

/** GET path on the engine; resolves the status code, or undefined when it does not answer. */
function engineGet(host, path) {
  const url = new URL(host);
  const target =
    url.protocol === 'unix:' ? { socketPath: url.pathname } : { host: url.hostname, port: Number(url.port) };
  return new Promise((resolve) => {
    const req = request({ ...target, path, method: 'GET', timeout: 3_000 }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

const host = process.env.DOCKER_HOST ?? '';
if (!/^(unix|tcp|http):\/\//.test(host) || (await engineGet(host, '/_ping')) !== 200) {
  console.error(
    `skipped: no container engine (DOCKER_HOST ${host === '' ? 'unset' : 'not answering'}); ` +
      'the docker executor, its conformance run and the compose test run in .ci/run',
  );
  process.exit(0);
}

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const missing = [];
for (const image of IMAGES) {
  if ((await engineGet(host, `/images/${encodeURIComponent(image)}/json`)) !== 200) missing.push(image);
}
if (build || missing.length > 0) {
  console.error(build ? 'building the images' : `building the missing images: ${missing.join(', ')}`);
  run(process.execPath, [join(root, 'scripts/build-images.mjs')]);
}
const started = Date.now();
run(join(root, 'node_modules/.bin/jest'), ['--selectProjects', 'containers', ...jestArgs]);
console.error(`container tests: ${Math.round((Date.now() - started) / 1000)} s`);
