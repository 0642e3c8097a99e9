#!/usr/bin/env node
// Moves the ACP adapters the shipped profiles pin (docs/agent-profiles) to newer versions, then runs the
// agent suite against them (installing them first), so a bump lands only with the proof that the real
// agents still keep every promise (docs/agents.md).
//   node scripts/bump-agent-adapters.mjs                     every pinned adapter to its latest version
//   node scripts/bump-agent-adapters.mjs <package>@<x.y.z>…  the given adapters to the given versions
//   --dry-run: print what would change, change nothing
// Exits with the suite's status; the profiles keep the new versions either way (git diff shows them).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinnedAdapters } from './lib/agent-adapters.mjs';
import { ensureBuilt, root, run } from './lib/workspace.mjs';

const PINNED = /^((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)@(\d+\.\d+\.\d+)$/;
const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const requested = new Map();
for (const arg of args.filter((a) => a !== '--dry-run')) {
  const match = PINNED.exec(arg);
  if (match === null) {
    console.error(`usage: node scripts/bump-agent-adapters.mjs [--dry-run] [<package>@<x.y.z> ...] (got "${arg}")`);
    process.exit(2);
  }
  requested.set(match[1], match[2]);
}

const adapters = pinnedAdapters();
for (const name of requested.keys()) {
  if (!adapters.some((a) => a.package === name)) {
    console.error(`${name} is not pinned by any profile in docs/agent-profiles`);
    process.exit(2);
  }
}

/** The registry's latest version of `pkg` (npm view). */
function latest(pkg) {
  return execFileSync('npm', ['view', pkg, 'version'], { encoding: 'utf8' }).trim();
}

const bumps = adapters
  .filter((a) => requested.size === 0 || requested.has(a.package))
  .map((a) => ({ ...a, to: requested.get(a.package) ?? latest(a.package) }))
  .filter((a) => a.to !== a.version);
if (bumps.length === 0) {
  console.log('every pinned adapter is already at that version');
  process.exit(0);
}
for (const b of bumps) console.log(`${b.profile}: ${b.package} ${b.version} -> ${b.to}`);
if (dryRun) process.exit(0);

for (const b of bumps) {
  const file = join(root, 'docs/agent-profiles', `${b.profile}.json`);
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  profile.args = profile.args.map((arg) => (arg === `${b.package}@${b.version}` ? `${b.package}@${b.to}` : arg));
  writeFileSync(file, `${JSON.stringify(profile, null, 2)}\n`);
}
run('npx', ['prettier', '--write', 'docs/agent-profiles']);
ensureBuilt();
// Installs the new versions into node_modules/.cache/agent-adapters, then runs the `agents` project.
run(process.execPath, [join(root, 'scripts/agent-adapter-tests.mjs')]);
console.log('the agent suite passed with the new versions; update the version table in docs/agents.md');
