#!/usr/bin/env node
// Each MCP tool name is written in exactly one source file: its definition in the catalogue
// (packages/protocol/src/tools/). Everything else imports the definition, so a quoted `*_kandev` name
// anywhere else under packages/*/src (tests aside) is a second definition waiting to drift.
import { fileURLToPath } from 'node:url';
import { sourceFiles } from './lib/source-files.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const CATALOGUE = 'packages/protocol/src/tools/';
const QUOTED_NAME = /(['"`])([a-z][a-z0-9_]*_kandev)\1/g;

const found = [];
for (const { path, text } of sourceFiles(root)) {
  if (path.startsWith(CATALOGUE) || path.endsWith('.test.ts')) continue;
  text.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(QUOTED_NAME)) found.push(`${path}:${index + 1}: ${match[2]}`);
  });
}
if (found.length > 0) {
  console.error(`tool names written outside ${CATALOGUE} (import the definition instead):\n  ${found.join('\n  ')}`);
  process.exit(1);
}
console.log('tool names: each defined once, in the catalogue');
