// A shipped agent profile (docs/agent-profiles/<name>.json) as a user would post it, with the two
// changes a test makes: `command` is the pinned adapter installed by scripts/agent-adapter-tests.mjs
// (instead of `npx -y <package>@<version>`; the args after the package spec are kept), and `env` gets
// the variables the user adds merged in.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../processes';

export const ADAPTERS_DIR = process.env.AGENT_ADAPTERS_DIR ?? join(REPO_ROOT, 'node_modules/.cache/agent-adapters');
const PROFILES_DIR = join(REPO_ROOT, 'docs/agent-profiles');
/** Same rule as scripts/lib/agent-adapters.mjs: npx runs `<package>@<x.y.z>`. */
const PINNED_SPEC = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d+\.\d+\.\d+)$/;

export interface ProfileBody {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  supports_mcp: boolean;
  [field: string]: unknown;
}

/** The installed executable of `pkg`, checked to be exactly the pinned version. */
function installedBin(pkg: string, version: string): string {
  const manifestPath = join(ADAPTERS_DIR, 'node_modules', pkg, 'package.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`${pkg} is not installed in ${ADAPTERS_DIR}: run node scripts/agent-adapter-tests.mjs`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; bin: Record<string, string> };
  if (manifest.version !== version)
    throw new Error(`${pkg} ${manifest.version} installed, the profile pins ${version}`);
  const [bin] = Object.keys(manifest.bin);
  if (bin === undefined) throw new Error(`${pkg} has no executable`);
  return join(ADAPTERS_DIR, 'node_modules/.bin', bin);
}

export function shippedProfile(profile: string, userEnv: Record<string, string>): ProfileBody {
  const shipped = JSON.parse(readFileSync(join(PROFILES_DIR, `${profile}.json`), 'utf8')) as ProfileBody;
  if (shipped.command !== 'npx') throw new Error(`${profile}: expected an npx profile, got ${shipped.command}`);
  const at = shipped.args.findIndex((arg) => !arg.startsWith('-'));
  const match = PINNED_SPEC.exec(shipped.args[at] ?? '');
  if (match === null) throw new Error(`${profile}: npx must run <package>@<x.y.z>`);
  const [, pkg = '', version = ''] = match;
  return {
    ...shipped,
    command: installedBin(pkg, version),
    args: shipped.args.slice(at + 1),
    env: { ...(shipped.env ?? {}), ...userEnv },
  };
}
