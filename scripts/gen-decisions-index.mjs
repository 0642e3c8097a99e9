#!/usr/bin/env node
// Writes the index table of docs/decisions/README.md from the records' front matter (status, date, what
// each one supersedes or amends, the reference page that describes today's design). Everything above the
// marker line is hand-written and kept. `--check` writes nothing and fails when the file differs from what
// it would write (npm run lint runs the same comparison in scripts/check-docs.mjs).
// Usage: node scripts/gen-decisions-index.mjs [--check]
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DECISIONS_DIR, INDEX, checkDecisions, formatIndex, isDecisionFile, readDecision } from './lib/decisions.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

const records = readdirSync(join(root, DECISIONS_DIR))
  .filter((name) => isDecisionFile(`${DECISIONS_DIR}/${name}`))
  .map((name) => readDecision(name, readFileSync(join(root, DECISIONS_DIR, name), 'utf8')));
const problems = checkDecisions(records);
if (problems.length > 0) {
  for (const { file, message } of problems) console.error(`${DECISIONS_DIR}/${file}: ${message}`);
  process.exit(1);
}

const current = readFileSync(join(root, INDEX), 'utf8');
const next = await formatIndex(join(root, INDEX), current, records);
if (check) {
  if (next !== current) {
    console.error(`${INDEX} is out of date with the records: run npm run gen:decisions-index`);
    process.exit(1);
  }
  console.log(`${INDEX} is up to date (${records.length} records)`);
} else {
  writeFileSync(join(root, INDEX), next);
  console.log(`wrote ${INDEX} (${records.length} records)`);
}
