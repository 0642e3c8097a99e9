// The Node an image bundle is built with. A bundle's native modules (better-sqlite3) must load in the
// base image's Node, so the bundle is installed and checked on the host with that Node's release: the
// host's own Node when its ABI is the image's, else the same release from the npm registry
// (node-package.mjs). The image is asked which Node it has, in a throwaway container.
import { spawnSync } from 'node:child_process';
import { fetchNode, headersFor } from './node-package.mjs';
import { currentNode, nodeEnv } from './node-release.mjs';

const ASK =
  'JSON.stringify({version:process.versions.node,modules:process.versions.modules,platform:process.platform,arch:process.arch})';

/** `{ version, modules, platform, arch }` of the `node` in `image` (run with the container CLI `cli`). */
function imageNode(cli, image) {
  const result = spawnSync(cli, ['run', '--rm', '--entrypoint', 'node', image, '-p', ASK], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0)
    throw new Error(`could not run node in ${image} (${result.error?.message ?? result.status})`);
  return JSON.parse(result.stdout.trim().split('\n').at(-1));
}

/** A Node on this host that builds native modules loading in `target` (an image's Node). */
function nodeFor(target) {
  const host = currentNode();
  if (target.platform !== host.platform || target.arch !== host.arch) {
    throw new Error(
      `the image runs ${target.platform}-${target.arch}, this host is ${host.platform}-${host.arch}: ` +
        'its native modules are built here, so build on a host of the image platform',
    );
  }
  if (target.modules === host.modules) return host;
  return fetchNode(target.version, target.platform, target.arch);
}

/**
 * The Node that installs the bundles of images `FROM image`, and the environment that runs pnpm and npm
 * on it (it first on PATH, its headers as nodedir).
 */
export function installingNode(cli, image, baseEnv) {
  const target = imageNode(cli, image);
  const node = nodeFor(target);
  console.error(
    `${image} runs Node ${target.version}: its bundles are installed with Node ${node.version} (${node.bin})`,
  );
  return { node, env: nodeEnv(baseEnv, node, headersFor(node)) };
}
