#!/usr/bin/env node
// Builds the agentctl and backend images from a clean checkout:
//   install (when missing) -> TypeScript build -> `pnpm deploy --prod` of each package into .bundle/<name>
//   -> `docker build` with docker/<name>.Dockerfile (the context is the repository root; .dockerignore
//   lets only .bundle/ in).
//
//   node scripts/build-images.mjs [--tag <tag>] [--only agentctl|backend]
//   BASE_IMAGE=localhost/node-base:20 node scripts/build-images.mjs   # on machines without a registry
//
// Images: kandev/agentctl:<tag> and kandev/backend:<tag> (tag defaults to "dev"). Uses the `docker` CLI,
// or `podman` when there is no docker CLI; DOCKER_HOST is honoured by both.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt, pnpmVersion, root, run } from './lib/workspace.mjs';
const IMAGES = { agentctl: '@kandev/agentctl', backend: '@kandev/backend' };

const { values } = parseArgs({
  options: { tag: { type: 'string', default: 'dev' }, only: { type: 'string' } },
});
if (values.only !== undefined && !(values.only in IMAGES)) {
  console.error(`--only must be one of ${Object.keys(IMAGES).join(', ')}`);
  process.exit(2);
}
const names = values.only === undefined ? Object.keys(IMAGES) : [values.only];

function containerCli() {
  for (const cli of ['docker', 'podman']) {
    if (spawnSync(cli, ['--version'], { stdio: 'ignore' }).status === 0) return cli;
  }
  console.error('neither docker nor podman is installed');
  process.exit(1);
}

const pnpm = ['--yes', `pnpm@${pnpmVersion}`];
ensureBuilt();

const cli = containerCli();
const baseImage = process.env.BASE_IMAGE ?? 'node:20-bookworm-slim';
for (const name of names) {
  const bundle = join(root, '.bundle', name);
  rmSync(bundle, { recursive: true, force: true });
  // --legacy: deploy the workspace package as built, without injecting workspace dependencies.
  run('npx', [...pnpm, '--filter', IMAGES[name], 'deploy', '--prod', '--legacy', bundle]);
  // The web console's static files ride inside the backend bundle (served from <bundle>/console).
  if (name === 'backend') cpSync(join(root, 'packages/console/dist'), join(bundle, 'console'), { recursive: true });
  const image = `kandev/${name}:${values.tag}`;
  console.error(`building ${image} FROM ${baseImage}`);
  run(cli, [
    'build',
    ...(cli === 'podman' ? ['--format', 'docker'] : []), // keeps HEALTHCHECK, which the OCI format drops
    '--build-arg',
    `BASE_IMAGE=${baseImage}`,
    '-f',
    join('docker', `${name}.Dockerfile`),
    '-t',
    image,
    '.',
  ]);
}
