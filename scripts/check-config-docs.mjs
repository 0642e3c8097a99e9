#!/usr/bin/env node
// docs/configuration.md holds the one table of every environment variable the daemons, executors,
// compose file and tools read. A variable named in the sources but not in the table (or a table row whose
// variable nothing reads any more) is documentation drifting from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './lib/source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const TABLE = 'docs/configuration.md';
/** Whole names only: a template prefix such as `KANDEV_AGENTCTL_TLS_${field}` ends in `_`. */
const NAME = /\bKANDEV_[A-Z0-9_]*[A-Z0-9]\b/g;
const EXTRA_FILES = ['docker-compose.yml', '.env.example', 'scripts/demo.mjs'];

const read = new Map();
const note = (name, where) => {
  if (!read.has(name)) read.set(name, where);
};
for (const { path, text } of sourceFiles(root)) {
  if (path.endsWith('.test.ts')) continue;
  for (const match of text.matchAll(NAME)) note(match[0], path);
}
for (const path of EXTRA_FILES) {
  for (const match of readFileSync(join(root, path), 'utf8').matchAll(NAME)) note(match[0], path);
}

const rows = readFileSync(join(root, TABLE), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('| `'));
const documented = new Set(rows.map((line) => /^\| `([A-Z0-9_]+)`/.exec(line)?.[1]).filter(Boolean));

const undocumented = [...read].filter(([name]) => !documented.has(name)).map(([n, w]) => `${n} (read in ${w})`);
const stale = [...documented].filter((name) => name.startsWith('KANDEV_') && !read.has(name));
if (undocumented.length > 0 || stale.length > 0) {
  if (undocumented.length > 0) console.error(`not in ${TABLE}'s table:\n  ${undocumented.join('\n  ')}`);
  if (stale.length > 0) console.error(`in ${TABLE}'s table but read nowhere:\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
console.log(`configuration: ${documented.size} variables, every one read is documented`);
