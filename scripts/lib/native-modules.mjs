// Native modules load only into a Node with the ABI (NODE_MODULE_VERSION) they were compiled for. The
// ones we have are the packages pnpm may build (pnpm-workspace.yaml's onlyBuiltDependencies:
// better-sqlite3). Before anything runs, each one's binary is loaded in a child of the Node that will
// run it; when that fails (another Node line than the last build's, or a build pnpm reused from its
// store that was compiled against the wrong headers), the build kept for this ABI is put back, else the
// module is rebuilt against that Node's headers. Builds that load are kept per ABI, so switching Node
// lines back and forth rebuilds once per line.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headersFor } from './node-package.mjs';
import { nodeEnv } from './node-release.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/native-builds');

/** Per built dependency: the code that loads its binary (`dir`: the package's directory), where node-gyp puts it. */
const NATIVE = {
  'better-sqlite3': {
    load: (dir) => `new (require(${JSON.stringify(dir)}))(':memory:').close()`,
    built: 'build/Release',
  },
};

/** The names under `onlyBuiltDependencies:` in pnpm-workspace.yaml's text. */
export function onlyBuiltDependencies(yaml) {
  const block = /^onlyBuiltDependencies:\n((?:[ \t]+(?:-|#).*\n?)*)/m.exec(yaml)?.[1] ?? '';
  return [...block.matchAll(/^[ \t]+-[ \t]+['"]?([^'"\s#]+)/gm)].map((match) => match[1]);
}

/** The packages pnpm builds; each must have an entry in NATIVE. */
function builtDependencies() {
  const names = onlyBuiltDependencies(readFileSync(join(ROOT, 'pnpm-workspace.yaml'), 'utf8'));
  const unknown = names.filter((name) => !(name in NATIVE));
  if (unknown.length > 0) {
    throw new Error(`pnpm builds ${unknown.join(', ')}: say how to load it in scripts/lib/native-modules.mjs`);
  }
  return names;
}

/** A load error's output in a line: the two ABIs when that is the reason, else its first error line. */
export function loadError(output, nodeVersion) {
  const abi = /NODE_MODULE_VERSION (\d+)\. This version of Node.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(output);
  if (abi !== null) return `built for Node ABI ${abi[1]}, Node ${nodeVersion} has ${abi[2]}`;
  return output.split('\n').find((line) => /Error/.test(line)) ?? 'failed';
}

/** Why `node` cannot load the module in `dir` (in a line), or undefined when it can. */
function loadFailure(node, name, dir) {
  const result = spawnSync(node.bin, ['-e', NATIVE[name].load(dir)], { encoding: 'utf8' });
  if (result.status === 0) return undefined;
  return loadError(result.error?.message ?? result.stderr, node.version);
}

/** Where the build of `name` in `dir` for `node`'s ABI is kept. */
function keptBuild(node, name, dir) {
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return join(CACHE, `${name}@${version}`, `${node.platform}-${node.arch}-abi${node.modules}`);
}

function copyBinaries(from, to) {
  mkdirSync(to, { recursive: true });
  for (const file of readdirSync(from).filter((entry) => entry.endsWith('.node'))) {
    // Unlink first: a binary pnpm linked from its store is a hard link, and writing through it would
    // change the store's copy.
    rmSync(join(to, file), { force: true });
    copyFileSync(join(from, file), join(to, file));
  }
}

/**
 * Makes the built dependencies that `packageDir` depends on (packages/backend, an image bundle: them
 * in its node_modules) load in `node` (currentNode(), describeNode()).
 * `rebuild(names, env)` compiles them there; env carries `node` first on PATH and its headers.
 */
export function ensureNativeModules(packageDir, node, rebuild, baseEnv = process.env) {
  const modules = builtDependencies()
    .map((name) => ({ name, link: join(packageDir, 'node_modules', name) }))
    .filter(({ link }) => existsSync(link)) // a dependency of this package
    .map(({ name, link }) => ({ name, dir: realpathSync(link) }));
  const stale = [];
  for (const module of modules) {
    const failure = loadFailure(node, module.name, module.dir);
    if (failure === undefined) continue;
    const kept = keptBuild(node, module.name, module.dir);
    if (existsSync(kept)) {
      copyBinaries(kept, join(module.dir, NATIVE[module.name].built));
      if (loadFailure(node, module.name, module.dir) === undefined) {
        console.error(`${module.name}: ${failure}; put back its build for ABI ${node.modules}`);
        continue;
      }
    }
    stale.push({ ...module, failure });
  }
  if (stale.length > 0) {
    const nodedir = headersFor(node);
    for (const { name, failure } of stale) console.error(`${name}: ${failure}`);
    console.error(
      `rebuilding ${stale.map((m) => m.name).join(', ')} for Node ${node.version} with the headers in ${nodedir} (~1 min)`,
    );
    rebuild(
      stale.map((m) => m.name),
      nodeEnv(baseEnv, node, nodedir),
    );
    for (const { name, dir } of stale) {
      const failure = loadFailure(node, name, dir);
      if (failure !== undefined)
        throw new Error(`${name} still does not load in Node ${node.version} after a rebuild: ${failure}`);
    }
  }
  // Every module loads now: keep what a rebuild made, and a first build for this ABI.
  for (const { name, dir } of modules) {
    const kept = keptBuild(node, name, dir);
    if (stale.some((m) => m.name === name) || !existsSync(kept)) copyBinaries(join(dir, NATIVE[name].built), kept);
  }
}
