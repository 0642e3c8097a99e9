// A Node on this machine as native modules see it: its binary, its ABI (NODE_MODULE_VERSION: a
// compiled add-on loads only into a Node with the same one) and the headers to compile against. A
// user-wide `nodedir` (an .npmrc such as `nodedir=/usr`) names one Node's headers for every Node, so
// installs and rebuilds always pass the headers found here as npm_config_nodedir.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';

/** `{ bin, version, modules, platform, arch }` of the Node running this script. */
export function currentNode() {
  const { platform, arch, execPath } = process;
  return { bin: execPath, version: process.versions.node, modules: process.versions.modules, platform, arch };
}

/** The same description of another Node binary (run once to ask it). */
export function describeNode(bin) {
  const script =
    'JSON.stringify({version:process.versions.node,modules:process.versions.modules,platform:process.platform,arch:process.arch})';
  const result = spawnSync(bin, ['-p', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${bin} did not run: ${result.error?.message ?? result.stderr.trim()}`);
  return { bin, ...JSON.parse(result.stdout) };
}

/** The NODE_MODULE_VERSION of the headers under `nodedir` (include/node), or undefined without any. */
export function headersAbi(nodedir) {
  const file = join(nodedir, 'include/node/node_version.h');
  if (!existsSync(file)) return undefined;
  return /#define NODE_MODULE_VERSION (\d+)/.exec(readFileSync(file, 'utf8'))?.[1];
}

/**
 * A nodedir whose headers have `node`'s ABI, without fetching: the Node's own install (bin/node next
 * to include/node, as in Node's release archives and official images), else the configured
 * npm_config_nodedir when it fits. Undefined when neither does.
 */
export function localHeaders(node, configured = process.env.npm_config_nodedir ?? '') {
  const own = dirname(dirname(realpathSync(node.bin)));
  return [own, configured].find((dir) => dir !== '' && headersAbi(dir) === node.modules);
}

/**
 * PATH with `bin`'s directory in front unless `bin` is already the first node on it: children that run
 * `node` by name (npm, npx, pnpm, jest's bin) then get the same Node as the script that starts them.
 */
export function pathWithNode(path, bin) {
  const dirs = path.split(delimiter).filter((dir) => dir !== '');
  const first = dirs.map((dir) => join(dir, 'node')).find((candidate) => existsSync(candidate));
  if (first !== undefined && realpathSync(first) === realpathSync(bin)) return path;
  return [dirname(bin), ...dirs].join(delimiter);
}

/** The environment that builds native modules for `node`: it first on PATH, its headers as nodedir. */
export function nodeEnv(base, node, nodedir) {
  return { ...base, PATH: pathWithNode(base.PATH ?? '', node.bin), npm_config_nodedir: nodedir };
}
