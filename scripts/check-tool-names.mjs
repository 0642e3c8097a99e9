#!/usr/bin/env node
// Each MCP tool name is written in exactly one source file: its definition in the catalogue
// (packages/protocol/src/tools/). Everything else imports the definition, so a quoted `*_kandev` name
// anywhere else under packages/*/src (tests aside) is a second definition waiting to drift.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const CATALOGUE = 'packages/protocol/src/tools/';
const QUOTED_NAME = /(['"`])([a-z][a-z0-9_]*_kandev)\1/g;

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'generated' && entry.name !== 'dist' && entry.name !== 'node_modules')
        yield* sourceFiles(path);
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      yield path;
    }
  }
}

const found = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  for (const file of sourceFiles(join(root, 'packages', pkg, 'src'))) {
    const path = relative(root, file);
    if (path.startsWith(CATALOGUE)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const match of line.matchAll(QUOTED_NAME)) found.push(`${path}:${index + 1}: ${match[2]}`);
      });
  }
}
if (found.length > 0) {
  console.error(`tool names written outside ${CATALOGUE} (import the definition instead):\n  ${found.join('\n  ')}`);
  process.exit(1);
}
console.log('tool names: each defined once, in the catalogue');
