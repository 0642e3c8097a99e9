// The ACP agent adapters the example profiles in docs/agent-profiles pin (`npx -y <package>@<x.y.z>`):
// the profiles are the one list. The adapter handshake tests (scripts/agent-adapter-tests.mjs) and the
// agentctl-agents image (scripts/build-images.mjs --with-agents) install exactly these versions.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './workspace.mjs';

const PROFILES_DIR = join(root, 'docs/agent-profiles');
/** `<package>@<x.y.z>`, the package optionally scoped: an exact version, never a range or a tag. */
const PINNED_SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d+\.\d+\.\d+)$/;

/**
 * Every profile that runs its agent through npx: `{ profile, package, version, args }` (args: what
 * follows the package spec). Throws when such a profile does not pin an exact version.
 */
export function pinnedAdapters() {
  const adapters = [];
  for (const file of readdirSync(PROFILES_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const profile = JSON.parse(readFileSync(join(PROFILES_DIR, file), 'utf8'));
    if (profile.command !== 'npx') continue;
    const at = profile.args.findIndex((arg) => !arg.startsWith('-'));
    const match = PINNED_SPEC.exec(profile.args[at] ?? '');
    if (match === null) {
      throw new Error(
        `docs/agent-profiles/${file}: npx must run <package>@<x.y.z>, got ${JSON.stringify(profile.args)}`,
      );
    }
    adapters.push({
      profile: file.replace(/\.json$/, ''),
      package: match[1],
      version: match[2],
      args: profile.args.slice(at + 1),
    });
  }
  return adapters;
}

/** The version of `pkg` installed under prefix, or undefined. */
function installedVersion(prefix, pkg) {
  const manifest = join(prefix, 'node_modules', pkg, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : undefined;
}

/**
 * Installs the adapters into `prefix` (`npm install --prefix`, exact versions) unless they all are there
 * already. Returns undefined on success, else why it failed (npm's exit or error). npm is given no
 * `--ignore-scripts`: the adapters' own postinstall steps (none needed for the handshake) behave as under npx.
 */
export function installAdapters(prefix, adapters) {
  if (adapters.every((a) => installedVersion(prefix, a.package) === a.version)) return undefined;
  const specs = adapters.map((a) => `${a.package}@${a.version}`);
  console.error(`installing agent adapters into ${prefix}: ${specs.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--save-exact', '--no-audit', '--no-fund', '--loglevel=error', ...specs],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  if (result.error !== undefined) return `npm: ${result.error.message}`;
  if (result.status !== 0) return `npm install exited with ${result.status ?? result.signal}`;
  console.error(`agent adapters installed in ${Math.round((Date.now() - started) / 1000)} s`);
  return undefined;
}
