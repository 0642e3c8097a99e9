#!/usr/bin/env node
// Builds the agentctl and backend images from a clean checkout:
//   install (when missing) -> TypeScript build -> `pnpm deploy --prod` of each package into .bundle/<name>,
//   run with the base image's Node release (its native modules must load there: lib/image-node.mjs)
//   -> `docker build` with docker/<name>.Dockerfile (the context is the repository root; .dockerignore
//   lets only .bundle/ in).
//
//   node scripts/build-images.mjs [--tag <tag>] [--only agentctl|backend] [--agents all|<profile>,...]
//   BASE_IMAGE=localhost/node-base:24 node scripts/build-images.mjs   # on machines without a registry
//
// BASE_IMAGE defaults to node:24-bookworm-slim (the current LTS line); any Debian bookworm image with
// node on PATH will do (the native modules are compiled on the host, against its glibc).
//
// Images: kandev/agentctl:<tag> and kandev/backend:<tag> (tag defaults to "dev"). Uses the `docker` CLI,
// or `podman` when there is no docker CLI; DOCKER_HOST is honoured by both.
// --agents also builds kandev/agentctl-agents:<tag> (docker/agentctl-agents.Dockerfile): agentctl plus git
// and the ACP adapters pinned by the named docs/agent-profiles (all: every pinned one), installed on the
// host from the npm registry into node_modules/.cache/agent-adapters-image, its build context (~1 GB for
// all three; opt-in, as it is slow).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { installAdapters, pinnedAdapters } from './lib/agent-adapters.mjs';
import { installingNode } from './lib/image-node.mjs';
import { ensureNativeModules } from './lib/native-modules.mjs';
import { ensureBuilt, env, pnpmVersion, root, run } from './lib/workspace.mjs';
const IMAGES = { agentctl: '@kandev/agentctl', backend: '@kandev/backend' };

const { values } = parseArgs({
  options: { tag: { type: 'string', default: 'dev' }, only: { type: 'string' }, agents: { type: 'string' } },
});
if (values.only !== undefined && !(values.only in IMAGES)) {
  console.error(`--only must be one of ${Object.keys(IMAGES).join(', ')}`);
  process.exit(2);
}
const names = values.only === undefined ? Object.keys(IMAGES) : [values.only];
const adapters = values.agents === undefined ? [] : chosenAdapters(values.agents);
if (adapters.length > 0 && !names.includes('agentctl')) {
  console.error('--agents builds on the agentctl image: drop --only backend');
  process.exit(2);
}

/** The adapters of the named profiles (`all`: every pinned one); exits on an unknown name. */
function chosenAdapters(list) {
  const pinned = pinnedAdapters();
  if (list === 'all') return pinned;
  const wanted = list.split(',').filter((name) => name !== '');
  const unknown = wanted.filter((name) => !pinned.some((a) => a.profile === name));
  if (wanted.length === 0 || unknown.length > 0) {
    console.error(`--agents takes all or profiles among ${pinned.map((a) => a.profile).join(', ')}`);
    process.exit(2);
  }
  return pinned.filter((a) => wanted.includes(a.profile));
}

/** A fatal setup error: its message, exit 1. */
function failed(err) {
  console.error(err.message);
  process.exit(1);
}

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
const baseImage = process.env.BASE_IMAGE ?? 'node:24-bookworm-slim';
let bundleNode;
try {
  bundleNode = installingNode(cli, baseImage, env);
} catch (err) {
  failed(err);
}
for (const name of names) {
  const bundle = join(root, '.bundle', name);
  rmSync(bundle, { recursive: true, force: true });
  // --legacy: deploy the workspace package as built, without injecting workspace dependencies.
  run('npx', [...pnpm, '--filter', IMAGES[name], 'deploy', '--prod', '--legacy', bundle], { env: bundleNode.env });
  // pnpm may have linked a build from its store that does not load in that Node; it does not rebuild in
  // a deployed tree, npm does.
  try {
    ensureNativeModules(bundle, bundleNode.node, (modules, buildEnv) =>
      run('npm', ['rebuild', '--foreground-scripts', ...modules], { cwd: bundle, env: buildEnv }),
    );
  } catch (err) {
    failed(err);
  }
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

if (adapters.length > 0) {
  // Its own build context, outside .bundle/: the other images' context does not carry 1 GB of adapters.
  const bundle = join(root, 'node_modules/.cache/agent-adapters-image');
  // Reinstall from scratch when the choice changed (npm install would keep the adapters left out).
  const manifest = join(bundle, 'package.json');
  const installed = existsSync(manifest)
    ? Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {})
    : [];
  if (
    installed.sort().join() !==
    adapters
      .map((a) => a.package)
      .sort()
      .join()
  )
    rmSync(bundle, { recursive: true, force: true });
  const failure = installAdapters(bundle, adapters);
  if (failure !== undefined) {
    console.error(`agent adapters: ${failure}`);
    process.exit(1);
  }
  const image = `kandev/agentctl-agents:${values.tag}`;
  console.error(
    `building ${image} FROM kandev/agentctl:${values.tag} with ${adapters.map((a) => a.profile).join(', ')}`,
  );
  run(cli, [
    'build',
    ...(cli === 'podman' ? ['--format', 'docker'] : []),
    '--build-arg',
    `AGENTCTL_IMAGE=kandev/agentctl:${values.tag}`,
    '-f',
    join(root, 'docker', 'agentctl-agents.Dockerfile'),
    '-t',
    image,
    bundle,
  ]);
}
